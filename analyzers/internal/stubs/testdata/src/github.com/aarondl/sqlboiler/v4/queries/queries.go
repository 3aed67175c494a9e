// Package queries is a stub of github.com/aarondl/sqlboiler/v4/queries
// v4.19.5 for analysistest fixtures: real signatures, no behaviour.
package queries

import (
	"context"
	"database/sql"
	"reflect"

	"github.com/aarondl/sqlboiler/v4/boil"
)

type Query struct {
	update map[string]interface{}
	delete bool
}

func Raw(query string, args ...interface{}) *Query  { return &Query{} }
func RawG(query string, args ...interface{}) *Query { return &Query{} }

func (q *Query) Exec(exec boil.Executor) (sql.Result, error) { return nil, nil }
func (q *Query) ExecContext(ctx context.Context, exec boil.ContextExecutor) (sql.Result, error) {
	return nil, nil
}
func (q *Query) QueryRowContext(ctx context.Context, exec boil.ContextExecutor) *sql.Row { return nil }
func (q *Query) Bind(ctx context.Context, exec boil.Executor, obj interface{}) error     { return nil }

func SetUpdate(q *Query, cols map[string]interface{})            {}
func SetDelete(q *Query)                                         {}
func SetSelect(q *Query, sel []string)                           {}
func GetSelect(q *Query) []string                                { return nil }
func AppendWhere(q *Query, clause string, args ...interface{})   {}
func AppendFrom(q *Query, from ...string)                        {}
func SetLimit(q *Query, limit int)                               {}
func AppendOrderBy(q *Query, clause string, args ...interface{}) {}

func BindMapping(typ reflect.Type, mapping map[string]uint64, cols []string) ([]uint64, error) {
	return nil, nil
}
func ValuesFromMapping(val reflect.Value, mapping []uint64) []interface{} { return nil }
func PtrsFromMapping(val reflect.Value, mapping []uint64) []interface{}   { return nil }
