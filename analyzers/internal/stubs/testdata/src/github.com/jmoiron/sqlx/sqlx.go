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
