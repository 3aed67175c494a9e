// Package sqlgraph is a stub of entgo.io/ent/dialect/sql/sqlgraph: the
// functions every write of an ent client ends in, with the real signatures.
package sqlgraph

import (
	"context"
	"database/sql/driver"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/schema/field"
)

type FieldSpec struct {
	Column string
	Type   field.Type
	Value  driver.Value
}

func NewFieldSpec(column string, typ field.Type) *FieldSpec {
	return &FieldSpec{Column: column, Type: typ}
}

type FieldMut struct {
	Set   []*FieldSpec
	Add   []*FieldSpec
	Clear []*FieldSpec
}

type NodeSpec struct {
	Table   string
	Schema  string
	Columns []string
	ID      *FieldSpec
}

type CreateSpec struct {
	Table      string
	Schema     string
	ID         *FieldSpec
	Fields     []*FieldSpec
	OnConflict []sql.ConflictOption
}

func NewCreateSpec(table string, id *FieldSpec) *CreateSpec {
	return &CreateSpec{Table: table, ID: id}
}

func (u *CreateSpec) SetField(column string, t field.Type, value driver.Value) {
	u.Fields = append(u.Fields, &FieldSpec{Column: column, Type: t, Value: value})
}

type BatchCreateSpec struct {
	Nodes      []*CreateSpec
	OnConflict []sql.ConflictOption
}

func CreateNode(ctx context.Context, drv dialect.Driver, spec *CreateSpec) error { return nil }

func BatchCreate(ctx context.Context, drv dialect.Driver, spec *BatchCreateSpec) error { return nil }

type UpdateSpec struct {
	Node      *NodeSpec
	Fields    FieldMut
	Predicate func(*sql.Selector)
}

func NewUpdateSpec(table string, columns []string, id ...*FieldSpec) *UpdateSpec {
	spec := &UpdateSpec{Node: &NodeSpec{Table: table, Columns: columns}}
	if len(id) == 1 {
		spec.Node.ID = id[0]
	}
	return spec
}

func (u *UpdateSpec) SetField(column string, t field.Type, value driver.Value) {
	u.Fields.Set = append(u.Fields.Set, &FieldSpec{Column: column, Type: t, Value: value})
}

func (u *UpdateSpec) AddField(column string, t field.Type, value driver.Value) {
	u.Fields.Add = append(u.Fields.Add, &FieldSpec{Column: column, Type: t, Value: value})
}

func UpdateNode(ctx context.Context, drv dialect.Driver, spec *UpdateSpec) error { return nil }

func UpdateNodes(ctx context.Context, drv dialect.Driver, spec *UpdateSpec) (int, error) {
	return 0, nil
}

type DeleteSpec struct {
	Node      *NodeSpec
	Predicate func(*sql.Selector)
}

func NewDeleteSpec(table string, id *FieldSpec) *DeleteSpec {
	return &DeleteSpec{Node: &NodeSpec{Table: table, ID: id}}
}

func DeleteNodes(ctx context.Context, drv dialect.Driver, spec *DeleteSpec) (int, error) {
	return 0, nil
}

type QuerySpec struct {
	Node      *NodeSpec
	Predicate func(*sql.Selector)
}

func NewQuerySpec(table string, columns []string, id *FieldSpec) *QuerySpec {
	return &QuerySpec{Node: &NodeSpec{Table: table, Columns: columns, ID: id}}
}

func QueryNodes(ctx context.Context, drv dialect.Driver, spec *QuerySpec) error { return nil }

func CountNodes(ctx context.Context, drv dialect.Driver, spec *QuerySpec) (int, error) {
	return 0, nil
}

type NotFoundError struct {
	table string
	id    driver.Value
}

func (e *NotFoundError) Error() string { return "record with id not found in table " + e.table }

type ConstraintError struct{ msg string }

func (e ConstraintError) Error() string { return e.msg }

func IsConstraintError(err error) bool { return false }
