// Package sqlx is a stub of github.com/jmoiron/sqlx v1.4.0 for analysistest
// fixtures: real signatures, no behaviour.
package sqlx

import (
	"context"
	"database/sql"
)

type DB struct {
	*sql.DB
	driverName string
}

func NewDb(db *sql.DB, driverName string) *DB { return &DB{DB: db, driverName: driverName} }

func (db *DB) Rebind(query string) string { return query }
func (db *DB) BindNamed(query string, arg interface{}) (string, []interface{}, error) {
	return query, nil, nil
}
func (db *DB) NamedExec(query string, arg interface{}) (sql.Result, error) { return nil, nil }
func (db *DB) NamedExecContext(ctx context.Context, query string, arg interface{}) (sql.Result, error) {
	return nil, nil
}
func (db *DB) MustExec(query string, args ...interface{}) sql.Result { return nil }
func (db *DB) MustExecContext(ctx context.Context, query string, args ...interface{}) sql.Result {
	return nil
}
func (db *DB) Beginx() (*Tx, error) { return &Tx{}, nil }

type Tx struct {
	*sql.Tx
	driverName string
}

func (tx *Tx) Rebind(query string) string { return query }
func (tx *Tx) BindNamed(query string, arg interface{}) (string, []interface{}, error) {
	return query, nil, nil
}
func (tx *Tx) NamedExec(query string, arg interface{}) (sql.Result, error) { return nil, nil }
func (tx *Tx) NamedExecContext(ctx context.Context, query string, arg interface{}) (sql.Result, error) {
	return nil, nil
}
func (tx *Tx) MustExec(query string, args ...interface{}) sql.Result { return nil }
func (tx *Tx) MustExecContext(ctx context.Context, query string, args ...interface{}) sql.Result {
	return nil
}

type Conn struct {
	*sql.Conn
	driverName string
}

func (c *Conn) Rebind(query string) string { return query }

func Named(query string, arg interface{}) (string, []interface{}, error)  { return query, nil, nil }
func In(query string, args ...interface{}) (string, []interface{}, error) { return query, nil, nil }

type Execer interface {
	Exec(query string, args ...interface{}) (sql.Result, error)
}

type Queryer interface {
	Query(query string, args ...interface{}) (*sql.Rows, error)
}

type Ext interface {
	Queryer
	Execer
}

type ExecerContext interface {
	ExecContext(ctx context.Context, query string, args ...interface{}) (sql.Result, error)
}

type QueryerContext interface {
	QueryContext(ctx context.Context, query string, args ...interface{}) (*sql.Rows, error)
}

type ExtContext interface {
	QueryerContext
	ExecerContext
}

type Row struct {
	err error
}

func (r *Row) Scan(dest ...interface{}) error { return r.err }

func (db *DB) Get(dest interface{}, query string, args ...interface{}) error { return nil }
func (db *DB) GetContext(ctx context.Context, dest interface{}, query string, args ...interface{}) error {
	return nil
}
func (db *DB) QueryRowx(query string, args ...interface{}) *Row { return &Row{} }
func (db *DB) QueryRowxContext(ctx context.Context, query string, args ...interface{}) *Row {
	return &Row{}
}
func (tx *Tx) Get(dest interface{}, query string, args ...interface{}) error { return nil }
func (tx *Tx) GetContext(ctx context.Context, dest interface{}, query string, args ...interface{}) error {
	return nil
}
func (tx *Tx) QueryRowx(query string, args ...interface{}) *Row { return &Row{} }
func (tx *Tx) QueryRowxContext(ctx context.Context, query string, args ...interface{}) *Row {
	return &Row{}
}
func (c *Conn) GetContext(ctx context.Context, dest interface{}, query string, args ...interface{}) error {
	return nil
}
func (c *Conn) QueryRowxContext(ctx context.Context, query string, args ...interface{}) *Row {
	return &Row{}
}

func NamedExec(e Ext, query string, arg interface{}) (sql.Result, error) { return nil, nil }
func NamedExecContext(ctx context.Context, e ExtContext, query string, arg interface{}) (sql.Result, error) {
	return nil, nil
}
func MustExec(e Execer, query string, args ...interface{}) sql.Result { return nil }
func MustExecContext(ctx context.Context, e ExecerContext, query string, args ...interface{}) sql.Result {
	return nil
}
func Get(q Queryer, dest interface{}, query string, args ...interface{}) error { return nil }
func GetContext(ctx context.Context, q QueryerContext, dest interface{}, query string, args ...interface{}) error {
	return nil
}
