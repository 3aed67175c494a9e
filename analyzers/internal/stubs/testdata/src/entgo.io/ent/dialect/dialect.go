// Package dialect is a stub of entgo.io/ent/dialect: the driver interface
// the generated client passes to sqlgraph.
package dialect

import "context"

// Dialect names.
const (
	MySQL    = "mysql"
	SQLite   = "sqlite3"
	Postgres = "postgres"
)

type ExecQuerier interface {
	Exec(ctx context.Context, query string, args, v any) error
	Query(ctx context.Context, query string, args, v any) error
}

type Driver interface {
	ExecQuerier
	Tx(context.Context) (Tx, error)
	Close() error
	Dialect() string
}

type Tx interface {
	ExecQuerier
	Commit() error
	Rollback() error
}
