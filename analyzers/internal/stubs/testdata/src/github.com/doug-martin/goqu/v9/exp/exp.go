// Package exp is a stub of github.com/doug-martin/goqu/v9/exp v9.19.0 for
// analysistest fixtures: real signatures, no behaviour.
package exp

type Expression interface {
	Clone() Expression
	Expression() Expression
}

type BooleanExpression interface {
	Expression
}

type IdentifierExpression interface {
	Expression
	Eq(interface{}) BooleanExpression
	Neq(interface{}) BooleanExpression
	Gt(interface{}) BooleanExpression
	Gte(interface{}) BooleanExpression
	Lt(interface{}) BooleanExpression
	Lte(interface{}) BooleanExpression
	Set(interface{}) UpdateExpression
}

type LiteralExpression interface {
	Expression
	Eq(interface{}) BooleanExpression
	Neq(interface{}) BooleanExpression
	Gt(interface{}) BooleanExpression
	Gte(interface{}) BooleanExpression
	Lt(interface{}) BooleanExpression
	Lte(interface{}) BooleanExpression
}

type UpdateExpression interface {
	Col() IdentifierExpression
	Val() interface{}
}

type ExpressionList interface {
	Expression
}

type ConflictExpression interface {
	Expression
}

type ConflictUpdateExpression interface {
	ConflictExpression
	Where(expressions ...Expression) ConflictUpdateExpression
}

type Ex map[string]interface{}

func (e Ex) Expression() Expression { return e }
func (e Ex) Clone() Expression      { return e }

type Op map[string]interface{}

type Record map[string]interface{}
