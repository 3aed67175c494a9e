// Package boil is a stub of github.com/aarondl/sqlboiler/v4/boil v4.19.5 for
// analysistest fixtures: real signatures, no behaviour.
package boil

import (
	"context"
	"database/sql"
)

type Executor interface {
	Exec(query string, args ...interface{}) (sql.Result, error)
	Query(query string, args ...interface{}) (*sql.Rows, error)
	QueryRow(query string, args ...interface{}) *sql.Row
}

type ContextExecutor interface {
	Executor

	ExecContext(ctx context.Context, query string, args ...interface{}) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...interface{}) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...interface{}) *sql.Row
}

type Columns struct {
	Kind int
	Cols []string
}

func Infer() Columns                      { return Columns{} }
func Whitelist(columns ...string) Columns { return Columns{} }

func (c Columns) UpdateColumnSet(allColumns, pkeyCols []string) []string { return nil }
func (c Columns) InsertColumnSet(cols, defaults, noDefaults, nonZeroDefaults []string) ([]string, []string) {
	return nil, nil
}
