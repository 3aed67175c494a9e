// Package pgx is a stub of github.com/jackc/pgx/v5 v5.13.0 for analysistest
// fixtures: real signatures, no behaviour.
package pgx

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

var ErrNoRows = errors.New("no rows in result set")

type Conn struct {
	pgConn *pgconn.PgConn
}

func Connect(ctx context.Context, connString string) (_ *Conn, _ error) { return }

func (c *Conn) Close(ctx context.Context) (_ error) { return }
func (c *Conn) Prepare(ctx context.Context, name, sql string) (sd *pgconn.StatementDescription, err error) {
	return
}
func (c *Conn) PgConn() *pgconn.PgConn { return c.pgConn }
func (c *Conn) Exec(ctx context.Context, sql string, arguments ...any) (_ pgconn.CommandTag, _ error) {
	return
}
func (c *Conn) Query(ctx context.Context, sql string, args ...any) (_ Rows, _ error) { return }
func (c *Conn) QueryRow(ctx context.Context, sql string, args ...any) (_ Row)        { return }
func (c *Conn) SendBatch(ctx context.Context, b *Batch) (_ BatchResults)             { return }
func (c *Conn) CopyFrom(ctx context.Context, tableName Identifier, columnNames []string, rowSrc CopyFromSource) (_ int64, _ error) {
	return
}
func (c *Conn) Begin(ctx context.Context) (_ Tx, _ error)                        { return }
func (c *Conn) BeginTx(ctx context.Context, txOptions TxOptions) (_ Tx, _ error) { return }

type Identifier []string

type NamedArgs map[string]any

type StrictNamedArgs map[string]any

type CopyFromSource interface {
	Next() bool
	Values() ([]any, error)
	Err() error
}

func CopyFromRows(rows [][]any) (_ CopyFromSource) { return }

type Rows interface {
	Close()
	Err() error
	CommandTag() pgconn.CommandTag
	FieldDescriptions() []pgconn.FieldDescription
	Next() bool
	Scan(dest ...any) error
	Values() ([]any, error)
	RawValues() [][]byte
	Conn() *Conn
}

type Row interface {
	Scan(dest ...any) error
}

type (
	TxIsoLevel       string
	TxAccessMode     string
	TxDeferrableMode string
)

type TxOptions struct {
	IsoLevel       TxIsoLevel
	AccessMode     TxAccessMode
	DeferrableMode TxDeferrableMode
	BeginQuery     string
	CommitQuery    string
}

type LargeObjects struct {
	tx Tx
}

type Tx interface {
	Begin(ctx context.Context) (Tx, error)
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
	CopyFrom(ctx context.Context, tableName Identifier, columnNames []string, rowSrc CopyFromSource) (int64, error)
	SendBatch(ctx context.Context, b *Batch) BatchResults
	LargeObjects() LargeObjects
	Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error)
	Exec(ctx context.Context, sql string, arguments ...any) (commandTag pgconn.CommandTag, err error)
	Query(ctx context.Context, sql string, args ...any) (Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) Row
	Conn() *Conn
}

func BeginFunc(
	ctx context.Context,
	db interface {
		Begin(ctx context.Context) (Tx, error)
	},
	fn func(Tx) error,
) (err error) {
	return
}
