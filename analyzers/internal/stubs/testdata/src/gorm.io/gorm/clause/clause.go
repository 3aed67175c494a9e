// Package clause is a stub of gorm.io/gorm/clause v1.31.2 for analysistest
// fixtures: real signatures, no behaviour.
package clause

type Writer interface {
	WriteByte(byte) error
	WriteString(string) (int, error)
}

type Builder interface {
	Writer
	WriteQuoted(field interface{})
	AddVar(Writer, ...interface{})
	AddError(error) error
}

type Expression interface {
	Build(builder Builder)
}

type Column struct {
	Table string
	Name  string
	Alias string
	Raw   bool
}

type Expr struct {
	SQL                string
	Vars               []interface{}
	WithoutParentheses bool
}

func (expr Expr) Build(builder Builder) {}

type Where struct {
	Exprs []Expression
}

func (where Where) Build(builder Builder) {}

type Assignment struct {
	Column Column
	Value  interface{}
}

type Set []Assignment

func (set Set) Build(builder Builder) {}

func AssignmentColumns(values []string) Set { return nil }

type OnConflict struct {
	Columns      []Column
	Where        Where
	TargetWhere  Where
	OnConstraint string
	DoNothing    bool
	DoUpdates    Set
	UpdateAll    bool
}

func (onConflict OnConflict) Build(builder Builder) {}

type Locking struct {
	Strength string
	Table    Table
	Options  string
}

type Table struct {
	Name  string
	Alias string
	Raw   bool
}

func (locking Locking) Build(builder Builder) {}

type Returning struct {
	Columns []Column
}

func (returning Returning) Build(builder Builder) {}

type Eq struct {
	Column interface{}
	Value  interface{}
}

func (eq Eq) Build(builder Builder) {}

type Lt Eq

func (lt Lt) Build(builder Builder) {}

type Lte Eq

func (lte Lte) Build(builder Builder) {}

type Assigner interface {
	Assignments() []Assignment
}

type JoinType string

type JoinTarget struct {
	Type        JoinType
	Association string
	Subquery    Expression
	Table       string
}
