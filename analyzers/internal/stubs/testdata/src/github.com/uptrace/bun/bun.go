// Package bun is a stub of github.com/uptrace/bun v1.3.0 for analysistest
// fixtures: real signatures, no behaviour.
package bun

import (
	"context"
	"database/sql"

	"github.com/uptrace/bun/schema"
)

type BaseModel = schema.BaseModel

type DB struct{}

func (db *DB) NewInsert() *InsertQuery { return nil }
func (db *DB) NewUpdate() *UpdateQuery { return nil }
func (db *DB) NewDelete() *DeleteQuery { return nil }
func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return nil, nil
}
func (db *DB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return nil, nil
}
func (db *DB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row { return nil }
func (db *DB) Conn(ctx context.Context) (Conn, error)                                  { return Conn{}, nil }
func (db *DB) BeginTx(ctx context.Context, opts *sql.TxOptions) (Tx, error)            { return Tx{}, nil }
func (db *DB) RunInTx(ctx context.Context, opts *sql.TxOptions, fn func(ctx context.Context, tx Tx) error) error {
	return nil
}

type Conn struct {
	*sql.Conn
}

func (c Conn) NewInsert() *InsertQuery { return nil }
func (c Conn) NewUpdate() *UpdateQuery { return nil }
func (c Conn) NewDelete() *DeleteQuery { return nil }
func (c Conn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return nil, nil
}
func (c Conn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row { return nil }

type Tx struct {
	*sql.Tx
}

func (tx Tx) NewInsert() *InsertQuery { return nil }
func (tx Tx) NewUpdate() *UpdateQuery { return nil }
func (tx Tx) NewDelete() *DeleteQuery { return nil }
func (tx Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return nil, nil
}
func (tx Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row { return nil }
func (tx Tx) Commit() error                                                           { return nil }
func (tx Tx) Rollback() error                                                         { return nil }

type UpdateQuery struct{}

func (q *UpdateQuery) Model(model any) *UpdateQuery                          { return q }
func (q *UpdateQuery) Table(tables ...string) *UpdateQuery                   { return q }
func (q *UpdateQuery) TableExpr(query string, args ...any) *UpdateQuery      { return q }
func (q *UpdateQuery) ModelTableExpr(query string, args ...any) *UpdateQuery { return q }
func (q *UpdateQuery) Column(columns ...string) *UpdateQuery                 { return q }
func (q *UpdateQuery) Set(query string, args ...any) *UpdateQuery            { return q }
func (q *UpdateQuery) OmitZero() *UpdateQuery                                { return q }
func (q *UpdateQuery) WherePK(cols ...string) *UpdateQuery                   { return q }
func (q *UpdateQuery) Where(query string, args ...any) *UpdateQuery          { return q }
func (q *UpdateQuery) WhereOr(query string, args ...any) *UpdateQuery        { return q }
func (q *UpdateQuery) WhereGroup(sep string, fn func(*UpdateQuery) *UpdateQuery) *UpdateQuery {
	return q
}
func (q *UpdateQuery) Apply(fns ...func(*UpdateQuery) *UpdateQuery) *UpdateQuery { return q }
func (q *UpdateQuery) Returning(query string, args ...any) *UpdateQuery          { return q }
func (q *UpdateQuery) Exec(ctx context.Context, dest ...any) (sql.Result, error) { return nil, nil }

type InsertQuery struct{}

func (q *InsertQuery) Model(model any) *InsertQuery                               { return q }
func (q *InsertQuery) Table(tables ...string) *InsertQuery                        { return q }
func (q *InsertQuery) Column(columns ...string) *InsertQuery                      { return q }
func (q *InsertQuery) Value(column string, expr string, args ...any) *InsertQuery { return q }
func (q *InsertQuery) On(s string, args ...any) *InsertQuery                      { return q }
func (q *InsertQuery) Set(query string, args ...any) *InsertQuery                 { return q }
func (q *InsertQuery) Where(query string, args ...any) *InsertQuery               { return q }
func (q *InsertQuery) Ignore() *InsertQuery                                       { return q }
func (q *InsertQuery) Returning(query string, args ...any) *InsertQuery           { return q }
func (q *InsertQuery) Exec(ctx context.Context, dest ...any) (sql.Result, error)  { return nil, nil }

type DeleteQuery struct{}

func (q *DeleteQuery) Model(model any) *DeleteQuery                              { return q }
func (q *DeleteQuery) Table(tables ...string) *DeleteQuery                       { return q }
func (q *DeleteQuery) WherePK(cols ...string) *DeleteQuery                       { return q }
func (q *DeleteQuery) Where(query string, args ...any) *DeleteQuery              { return q }
func (q *DeleteQuery) WhereOr(query string, args ...any) *DeleteQuery            { return q }
func (q *DeleteQuery) WhereDeleted() *DeleteQuery                                { return q }
func (q *DeleteQuery) WhereAllWithDeleted() *DeleteQuery                         { return q }
func (q *DeleteQuery) ForceDelete() *DeleteQuery                                 { return q }
func (q *DeleteQuery) Exec(ctx context.Context, dest ...any) (sql.Result, error) { return nil, nil }
