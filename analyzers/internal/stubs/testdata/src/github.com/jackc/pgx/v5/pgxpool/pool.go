// Package pgxpool is a stub of github.com/jackc/pgx/v5/pgxpool v5.13.0 for
// analysistest fixtures: real signatures, no behaviour.
package pgxpool

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

type Config struct {
	MaxConns int32
}

func ParseConfig(connString string) (_ *Config, _ error) { return }

type Pool struct {
	config *Config
}

func New(ctx context.Context, connString string) (_ *Pool, _ error)        { return }
func NewWithConfig(ctx context.Context, config *Config) (_ *Pool, _ error) { return }

func (p *Pool) Close()                                           { return }
func (p *Pool) Acquire(ctx context.Context) (c *Conn, err error) { return }
func (p *Pool) Exec(ctx context.Context, sql string, arguments ...any) (_ pgconn.CommandTag, _ error) {
	return
}
func (p *Pool) Query(ctx context.Context, sql string, args ...any) (_ pgx.Rows, _ error) { return }
func (p *Pool) QueryRow(ctx context.Context, sql string, args ...any) (_ pgx.Row)        { return }
func (p *Pool) SendBatch(ctx context.Context, b *pgx.Batch) (_ pgx.BatchResults)         { return }
func (p *Pool) Begin(ctx context.Context) (_ pgx.Tx, _ error)                            { return }
func (p *Pool) BeginTx(ctx context.Context, txOptions pgx.TxOptions) (_ pgx.Tx, _ error) { return }
func (p *Pool) CopyFrom(ctx context.Context, tableName pgx.Identifier, columnNames []string, rowSrc pgx.CopyFromSource) (_ int64, _ error) {
	return
}

type Conn struct {
	res *pgx.Conn
}

func (c *Conn) Release()              { return }
func (c *Conn) Hijack() (_ *pgx.Conn) { return }
func (c *Conn) Exec(ctx context.Context, sql string, arguments ...any) (_ pgconn.CommandTag, _ error) {
	return
}
func (c *Conn) Query(ctx context.Context, sql string, args ...any) (_ pgx.Rows, _ error) { return }
func (c *Conn) QueryRow(ctx context.Context, sql string, args ...any) (_ pgx.Row)        { return }
func (c *Conn) SendBatch(ctx context.Context, b *pgx.Batch) (_ pgx.BatchResults)         { return }
func (c *Conn) CopyFrom(ctx context.Context, tableName pgx.Identifier, columnNames []string, rowSrc pgx.CopyFromSource) (_ int64, _ error) {
	return
}
func (c *Conn) Begin(ctx context.Context) (_ pgx.Tx, _ error)                            { return }
func (c *Conn) BeginTx(ctx context.Context, txOptions pgx.TxOptions) (_ pgx.Tx, _ error) { return }
func (c *Conn) Conn() *pgx.Conn                                                          { return c.res }

type Tx struct {
	t pgx.Tx
}

func (tx *Tx) Begin(ctx context.Context) (_ pgx.Tx, _ error) { return }
func (tx *Tx) Commit(ctx context.Context) (_ error)          { return }
func (tx *Tx) Rollback(ctx context.Context) (_ error)        { return }
func (tx *Tx) CopyFrom(ctx context.Context, tableName pgx.Identifier, columnNames []string, rowSrc pgx.CopyFromSource) (_ int64, _ error) {
	return
}
func (tx *Tx) SendBatch(ctx context.Context, b *pgx.Batch) (_ pgx.BatchResults) { return }
func (tx *Tx) LargeObjects() (_ pgx.LargeObjects)                               { return }
func (tx *Tx) Prepare(ctx context.Context, name, sql string) (_ *pgconn.StatementDescription, _ error) {
	return
}
func (tx *Tx) Exec(ctx context.Context, sql string, arguments ...any) (_ pgconn.CommandTag, _ error) {
	return
}
func (tx *Tx) Query(ctx context.Context, sql string, args ...any) (_ pgx.Rows, _ error) { return }
func (tx *Tx) QueryRow(ctx context.Context, sql string, args ...any) (_ pgx.Row)        { return }
func (tx *Tx) Conn() (_ *pgx.Conn)                                                      { return }
