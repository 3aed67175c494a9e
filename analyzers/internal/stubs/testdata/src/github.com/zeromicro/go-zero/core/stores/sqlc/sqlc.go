// Package sqlc is a stub of github.com/zeromicro/go-zero/core/stores/sqlc
// v1.7.3 for analysistest fixtures: real signatures; the calls of the
// funcs handed to CachedConn are kept, as the real package makes them.
package sqlc

import (
	"context"
	"database/sql"

	"github.com/zeromicro/go-zero/core/stores/sqlx"
)

// ErrNotFound is an alias of sqlx.ErrNotFound.
var ErrNotFound = sqlx.ErrNotFound

type (
	// ExecFn defines the sql exec method.
	ExecFn func(conn sqlx.SqlConn) (sql.Result, error)
	// ExecCtxFn defines the sql exec method.
	ExecCtxFn func(ctx context.Context, conn sqlx.SqlConn) (sql.Result, error)
	// IndexQueryCtxFn defines the query method that based on unique indexes.
	IndexQueryCtxFn func(ctx context.Context, conn sqlx.SqlConn, v any) (any, error)
	// PrimaryQueryCtxFn defines the query method that based on primary keys.
	PrimaryQueryCtxFn func(ctx context.Context, conn sqlx.SqlConn, v, primary any) error
	// QueryCtxFn defines the query method.
	QueryCtxFn func(ctx context.Context, conn sqlx.SqlConn, v any) error

	// A CachedConn is a DB connection with cache capability.
	CachedConn struct {
		db sqlx.SqlConn
	}
)

// Exec runs exec and deletes the cache keys.
func (cc CachedConn) Exec(exec ExecFn, keys ...string) (sql.Result, error) {
	return exec(cc.db)
}

// ExecCtx runs exec and deletes the cache keys.
func (cc CachedConn) ExecCtx(ctx context.Context, exec ExecCtxFn, keys ...string) (sql.Result, error) {
	return exec(ctx, cc.db)
}

// ExecNoCache runs the statement q, without affecting the cache.
func (cc CachedConn) ExecNoCache(q string, args ...any) (sql.Result, error) {
	return cc.db.Exec(q, args...)
}

// ExecNoCacheCtx runs the statement q, without affecting the cache.
func (cc CachedConn) ExecNoCacheCtx(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return cc.db.ExecCtx(ctx, q, args...)
}

// QueryRowCtx reads into v through the cache key and query.
func (cc CachedConn) QueryRowCtx(ctx context.Context, v any, key string, query QueryCtxFn) error {
	return query(ctx, cc.db, v)
}

// QueryRowIndexCtx reads into v through a unique index's cache key.
func (cc CachedConn) QueryRowIndexCtx(ctx context.Context, v any, key string,
	keyer func(primary any) string, indexQuery IndexQueryCtxFn,
	primaryQuery PrimaryQueryCtxFn) error {
	_, err := indexQuery(ctx, cc.db, v)
	return err
}

// QueryRowNoCache reads into v with the statement q.
func (cc CachedConn) QueryRowNoCache(v any, q string, args ...any) error {
	return cc.db.QueryRow(v, q, args...)
}

// QueryRowNoCacheCtx reads into v with the statement q.
func (cc CachedConn) QueryRowNoCacheCtx(ctx context.Context, v any, q string, args ...any) error {
	return cc.db.QueryRowCtx(ctx, v, q, args...)
}

// QueryRowPartialNoCache reads into v with the statement q.
func (cc CachedConn) QueryRowPartialNoCache(v any, q string, args ...any) error {
	return cc.db.QueryRowPartial(v, q, args...)
}

// QueryRowPartialNoCacheCtx reads into v with the statement q.
func (cc CachedConn) QueryRowPartialNoCacheCtx(ctx context.Context, v any, q string, args ...any) error {
	return cc.db.QueryRowPartialCtx(ctx, v, q, args...)
}

// QueryRowsNoCache reads into v with the statement q.
func (cc CachedConn) QueryRowsNoCache(v any, q string, args ...any) error {
	return cc.db.QueryRows(v, q, args...)
}

// QueryRowsNoCacheCtx reads into v with the statement q.
func (cc CachedConn) QueryRowsNoCacheCtx(ctx context.Context, v any, q string, args ...any) error {
	return cc.db.QueryRowsCtx(ctx, v, q, args...)
}

// QueryRowsPartialNoCache reads into v with the statement q.
func (cc CachedConn) QueryRowsPartialNoCache(v any, q string, args ...any) error {
	return cc.db.QueryRowsPartial(v, q, args...)
}

// QueryRowsPartialNoCacheCtx reads into v with the statement q.
func (cc CachedConn) QueryRowsPartialNoCacheCtx(ctx context.Context, v any, q string, args ...any) error {
	return cc.db.QueryRowsPartialCtx(ctx, v, q, args...)
}

// TransactCtx runs fn in a transaction.
func (cc CachedConn) TransactCtx(ctx context.Context, fn func(context.Context, sqlx.Session) error) error {
	return cc.db.TransactCtx(ctx, fn)
}
