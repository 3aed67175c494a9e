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

func ParseConfig(connString string) (*Config, error) { panic("stub") }

type Pool struct {
	config *Config
}

func New(ctx context.Context, connString string) (*Pool, error)        { panic("stub") }
func NewWithConfig(ctx context.Context, config *Config) (*Pool, error) { panic("stub") }

func (p *Pool) Close()                                           { panic("stub") }
func (p *Pool) Acquire(ctx context.Context) (c *Conn, err error) { panic("stub") }
func (p *Pool) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	panic("stub")
}
func (p *Pool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) { panic("stub") }
func (p *Pool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row        { panic("stub") }
func (p *Pool) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults         { panic("stub") }
func (p *Pool) Begin(ctx context.Context) (pgx.Tx, error)                            { panic("stub") }
func (p *Pool) BeginTx(ctx context.Context, txOptions pgx.TxOptions) (pgx.Tx, error) { panic("stub") }
func (p *Pool) CopyFrom(ctx context.Context, tableName pgx.Identifier, columnNames []string, rowSrc pgx.CopyFromSource) (int64, error) {
	panic("stub")
}

type Conn struct {
	res *pgx.Conn
}

func (c *Conn) Release()          { panic("stub") }
func (c *Conn) Hijack() *pgx.Conn { panic("stub") }
func (c *Conn) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	panic("stub")
}
func (c *Conn) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) { panic("stub") }
func (c *Conn) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row        { panic("stub") }
func (c *Conn) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults         { panic("stub") }
func (c *Conn) CopyFrom(ctx context.Context, tableName pgx.Identifier, columnNames []string, rowSrc pgx.CopyFromSource) (int64, error) {
	panic("stub")
}
func (c *Conn) Begin(ctx context.Context) (pgx.Tx, error)                            { panic("stub") }
func (c *Conn) BeginTx(ctx context.Context, txOptions pgx.TxOptions) (pgx.Tx, error) { panic("stub") }
func (c *Conn) Conn() *pgx.Conn                                                      { return c.res }

type Tx struct {
	t pgx.Tx
}

func (tx *Tx) Begin(ctx context.Context) (pgx.Tx, error) { panic("stub") }
func (tx *Tx) Commit(ctx context.Context) error          { panic("stub") }
func (tx *Tx) Rollback(ctx context.Context) error        { panic("stub") }
func (tx *Tx) CopyFrom(ctx context.Context, tableName pgx.Identifier, columnNames []string, rowSrc pgx.CopyFromSource) (int64, error) {
	panic("stub")
}
func (tx *Tx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults { panic("stub") }
func (tx *Tx) LargeObjects() pgx.LargeObjects                               { panic("stub") }
func (tx *Tx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	panic("stub")
}
func (tx *Tx) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	panic("stub")
}
func (tx *Tx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) { panic("stub") }
func (tx *Tx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row        { panic("stub") }
func (tx *Tx) Conn() *pgx.Conn                                                      { panic("stub") }
