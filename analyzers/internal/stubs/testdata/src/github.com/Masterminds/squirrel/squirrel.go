// Package squirrel is a stub of github.com/Masterminds/squirrel v1.5.4 for
// analysistest fixtures: real signatures, no behaviour.
package squirrel

import (
	"context"
	"database/sql"
)

type Sqlizer interface {
	ToSql() (string, []interface{}, error)
}

type Execer interface {
	Exec(query string, args ...interface{}) (sql.Result, error)
}

type Queryer interface {
	Query(query string, args ...interface{}) (*sql.Rows, error)
}

type BaseRunner interface {
	Execer
	Queryer
}

type PlaceholderFormat interface {
	ReplacePlaceholders(sql string) (string, error)
}

type dollarFormat struct{}

func (dollarFormat) ReplacePlaceholders(sql string) (string, error) { return sql, nil }

var Dollar = dollarFormat{}

type expr struct {
	sql  string
	args []interface{}
}

func (e expr) ToSql() (sql string, args []interface{}, err error) { return }

func Expr(sql string, args ...interface{}) Sqlizer { return expr{sql: sql, args: args} }

type Eq map[string]interface{}

func (eq Eq) ToSql() (sql string, args []interface{}, err error) { return }

type NotEq Eq

func (neq NotEq) ToSql() (sql string, args []interface{}, err error) { return }

type Lt map[string]interface{}

func (lt Lt) ToSql() (sql string, args []interface{}, err error) { return }

type LtOrEq Lt

func (ltOrEq LtOrEq) ToSql() (sql string, args []interface{}, err error) { return }

type Gt Lt

func (gt Gt) ToSql() (sql string, args []interface{}, err error) { return }

type GtOrEq Lt

func (gtOrEq GtOrEq) ToSql() (sql string, args []interface{}, err error) { return }

type conj []Sqlizer

type And conj

func (a And) ToSql() (string, []interface{}, error) { return "", nil, nil }

type Or conj

func (o Or) ToSql() (string, []interface{}, error) { return "", nil, nil }

type UpdateBuilder struct{ m map[string]interface{} }

func Update(table string) UpdateBuilder { return UpdateBuilder{} }

func (b UpdateBuilder) PlaceholderFormat(f PlaceholderFormat) UpdateBuilder       { return b }
func (b UpdateBuilder) RunWith(runner BaseRunner) UpdateBuilder                   { return b }
func (b UpdateBuilder) Exec() (sql.Result, error)                                 { return nil, nil }
func (b UpdateBuilder) ExecContext(ctx context.Context) (sql.Result, error)       { return nil, nil }
func (b UpdateBuilder) Query() (*sql.Rows, error)                                 { return nil, nil }
func (b UpdateBuilder) QueryContext(ctx context.Context) (*sql.Rows, error)       { return nil, nil }
func (b UpdateBuilder) QueryRow() RowScanner                                      { return nil }
func (b UpdateBuilder) QueryRowContext(ctx context.Context) RowScanner            { return nil }
func (b UpdateBuilder) ToSql() (string, []interface{}, error)                     { return "", nil, nil }
func (b UpdateBuilder) Set(column string, value interface{}) UpdateBuilder        { return b }
func (b UpdateBuilder) SetMap(clauses map[string]interface{}) UpdateBuilder       { return b }
func (b UpdateBuilder) Where(pred interface{}, args ...interface{}) UpdateBuilder { return b }
func (b UpdateBuilder) Suffix(sql string, args ...interface{}) UpdateBuilder      { return b }

type InsertBuilder struct{ m map[string]interface{} }

func Insert(into string) InsertBuilder { return InsertBuilder{} }

func (b InsertBuilder) PlaceholderFormat(f PlaceholderFormat) InsertBuilder  { return b }
func (b InsertBuilder) RunWith(runner BaseRunner) InsertBuilder              { return b }
func (b InsertBuilder) Exec() (sql.Result, error)                            { return nil, nil }
func (b InsertBuilder) ExecContext(ctx context.Context) (sql.Result, error)  { return nil, nil }
func (b InsertBuilder) Query() (*sql.Rows, error)                            { return nil, nil }
func (b InsertBuilder) QueryContext(ctx context.Context) (*sql.Rows, error)  { return nil, nil }
func (b InsertBuilder) QueryRow() RowScanner                                 { return nil }
func (b InsertBuilder) QueryRowContext(ctx context.Context) RowScanner       { return nil }
func (b InsertBuilder) ToSql() (string, []interface{}, error)                { return "", nil, nil }
func (b InsertBuilder) Columns(columns ...string) InsertBuilder              { return b }
func (b InsertBuilder) Values(values ...interface{}) InsertBuilder           { return b }
func (b InsertBuilder) Suffix(sql string, args ...interface{}) InsertBuilder { return b }

type DeleteBuilder struct{ m map[string]interface{} }

func Delete(from string) DeleteBuilder { return DeleteBuilder{} }

func (b DeleteBuilder) PlaceholderFormat(f PlaceholderFormat) DeleteBuilder       { return b }
func (b DeleteBuilder) RunWith(runner BaseRunner) DeleteBuilder                   { return b }
func (b DeleteBuilder) Exec() (sql.Result, error)                                 { return nil, nil }
func (b DeleteBuilder) ExecContext(ctx context.Context) (sql.Result, error)       { return nil, nil }
func (b DeleteBuilder) Query() (*sql.Rows, error)                                 { return nil, nil }
func (b DeleteBuilder) QueryContext(ctx context.Context) (*sql.Rows, error)       { return nil, nil }
func (b DeleteBuilder) QueryRowContext(ctx context.Context) RowScanner            { return nil }
func (b DeleteBuilder) ToSql() (string, []interface{}, error)                     { return "", nil, nil }
func (b DeleteBuilder) Where(pred interface{}, args ...interface{}) DeleteBuilder { return b }

type RowScanner interface {
	Scan(...interface{}) error
}

type SelectBuilder struct{ m map[string]interface{} }

func Select(columns ...string) SelectBuilder { return SelectBuilder{} }

func (b SelectBuilder) PlaceholderFormat(f PlaceholderFormat) SelectBuilder          { return b }
func (b SelectBuilder) RunWith(runner BaseRunner) SelectBuilder                      { return b }
func (b SelectBuilder) Exec() (sql.Result, error)                                    { return nil, nil }
func (b SelectBuilder) ExecContext(ctx context.Context) (sql.Result, error)          { return nil, nil }
func (b SelectBuilder) Query() (*sql.Rows, error)                                    { return nil, nil }
func (b SelectBuilder) QueryContext(ctx context.Context) (*sql.Rows, error)          { return nil, nil }
func (b SelectBuilder) QueryRow() RowScanner                                         { return nil }
func (b SelectBuilder) QueryRowContext(ctx context.Context) RowScanner               { return nil }
func (b SelectBuilder) ToSql() (string, []interface{}, error)                        { return "", nil, nil }
func (b SelectBuilder) Columns(columns ...string) SelectBuilder                      { return b }
func (b SelectBuilder) Column(column interface{}, args ...interface{}) SelectBuilder { return b }
func (b SelectBuilder) From(from string) SelectBuilder                               { return b }
func (b SelectBuilder) Where(pred interface{}, args ...interface{}) SelectBuilder    { return b }
func (b SelectBuilder) Limit(limit uint64) SelectBuilder                             { return b }
