// Package dotsql is a stub of github.com/qustavo/dotsql v1.2.0 for
// analysistest fixtures: real signatures, no behaviour.
package dotsql

import (
	"context"
	"database/sql"
)

type Queryer interface {
	Query(query string, args ...interface{}) (*sql.Rows, error)
}

type QueryRower interface {
	QueryRow(query string, args ...interface{}) *sql.Row
}

type QueryRowerContext interface {
	QueryRowContext(ctx context.Context, query string, args ...interface{}) *sql.Row
}

type QueryerContext interface {
	QueryContext(ctx context.Context, query string, args ...interface{}) (*sql.Rows, error)
}

type Execer interface {
	Exec(query string, args ...interface{}) (sql.Result, error)
}

type ExecerContext interface {
	ExecContext(ctx context.Context, query string, args ...interface{}) (sql.Result, error)
}

type DotSql struct {
	queries map[string]string
}

func (d DotSql) Query(db Queryer, name string, args ...interface{}) (*sql.Rows, error) {
	return nil, nil
}
func (d DotSql) QueryContext(ctx context.Context, db QueryerContext, name string, args ...interface{}) (*sql.Rows, error) {
	return nil, nil
}
func (d DotSql) QueryRow(db QueryRower, name string, args ...interface{}) (*sql.Row, error) {
	return nil, nil
}
func (d DotSql) QueryRowContext(ctx context.Context, db QueryRowerContext, name string, args ...interface{}) (*sql.Row, error) {
	return nil, nil
}
func (d DotSql) Exec(db Execer, name string, args ...interface{}) (sql.Result, error) {
	return nil, nil
}
func (d DotSql) ExecContext(ctx context.Context, db ExecerContext, name string, args ...interface{}) (sql.Result, error) {
	return nil, nil
}
func (d DotSql) Raw(name string) (string, error) { return d.queries[name], nil }

func LoadFromFile(sqlFile string) (*DotSql, error) { return &DotSql{}, nil }
func LoadFromString(sql string) (*DotSql, error)   { return &DotSql{}, nil }
