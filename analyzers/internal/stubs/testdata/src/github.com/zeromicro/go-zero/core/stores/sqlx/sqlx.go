// Package sqlx is a stub of github.com/zeromicro/go-zero/core/stores/sqlx
// v1.7.3 for analysistest fixtures: real signatures, no behaviour.
package sqlx

import (
	"context"
	"database/sql"
)

// ErrNotFound is what a QueryRow finds no row with.
var ErrNotFound = sql.ErrNoRows

type (
	// Session is a SQL session: a connection or a transaction.
	Session interface {
		Exec(query string, args ...any) (sql.Result, error)
		ExecCtx(ctx context.Context, query string, args ...any) (sql.Result, error)
		Prepare(query string) (StmtSession, error)
		PrepareCtx(ctx context.Context, query string) (StmtSession, error)
		QueryRow(v any, query string, args ...any) error
		QueryRowCtx(ctx context.Context, v any, query string, args ...any) error
		QueryRowPartial(v any, query string, args ...any) error
		QueryRowPartialCtx(ctx context.Context, v any, query string, args ...any) error
		QueryRows(v any, query string, args ...any) error
		QueryRowsCtx(ctx context.Context, v any, query string, args ...any) error
		QueryRowsPartial(v any, query string, args ...any) error
		QueryRowsPartialCtx(ctx context.Context, v any, query string, args ...any) error
	}

	// SqlConn is a raw connection, which can run transactions.
	SqlConn interface {
		Session
		RawDB() (*sql.DB, error)
		Transact(fn func(Session) error) error
		TransactCtx(ctx context.Context, fn func(context.Context, Session) error) error
	}

	// StmtSession is a prepared statement.
	StmtSession interface {
		Close() error
		Exec(args ...any) (sql.Result, error)
		ExecCtx(ctx context.Context, args ...any) (sql.Result, error)
		QueryRow(v any, args ...any) error
		QueryRowCtx(ctx context.Context, v any, args ...any) error
		QueryRowPartial(v any, args ...any) error
		QueryRowPartialCtx(ctx context.Context, v any, args ...any) error
		QueryRows(v any, args ...any) error
		QueryRowsCtx(ctx context.Context, v any, args ...any) error
		QueryRowsPartial(v any, args ...any) error
		QueryRowsPartialCtx(ctx context.Context, v any, args ...any) error
	}
)

// NewSqlConnFromDB returns a SqlConn over db.
func NewSqlConnFromDB(db *sql.DB, opts ...SqlOption) SqlConn { return nil }

// SqlOption customizes a connection.
type SqlOption func(*commonSqlConn)

type commonSqlConn struct{}
