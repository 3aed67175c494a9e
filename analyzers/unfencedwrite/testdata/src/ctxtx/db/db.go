// Package db carries the transaction in the context: a transactor begins
// it and hands its callback a context that holds it, and Querier gives
// that transaction when the context carries one.
package db

import (
	"context"
	"database/sql"
)

type Client struct{ *sql.DB }

type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

type txKey struct{}

// Querier returns the context's transaction, else the pool.
func (c Client) Querier(ctx context.Context) Querier {
	if tx, ok := ctx.Value(txKey{}).(*sql.Tx); ok {
		return tx
	}
	return c.DB
}

// WithTx runs fn with a context that carries a new transaction.
func (c Client) WithTx(ctx context.Context, fn func(context.Context) error) error {
	tx, err := c.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(context.WithValue(ctx, txKey{}, tx)); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// WithSavepoint runs fn inside a savepoint of the context's transaction,
// handing it the context it was given: fn runs on that transaction.
func (c Client) WithSavepoint(ctx context.Context, name string, fn func(context.Context) error) error {
	tx, ok := ctx.Value(txKey{}).(*sql.Tx)
	if !ok {
		return fn(ctx)
	}
	if _, err := tx.ExecContext(ctx, "SAVEPOINT "+name); err != nil {
		return err
	}
	if err := fn(ctx); err != nil {
		_, _ = tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT "+name)
		return err
	}
	_, err := tx.ExecContext(ctx, "RELEASE SAVEPOINT "+name)
	return err
}

// Detached runs fn with a context that carries no transaction.
func (c Client) Detached(ctx context.Context, fn func(context.Context) error) error {
	return fn(context.WithoutCancel(context.Background()))
}
