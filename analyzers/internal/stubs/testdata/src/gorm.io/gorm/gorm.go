// Package gorm is a stub of gorm.io/gorm v1.31.2 for analysistest fixtures:
// real signatures, no behaviour.
package gorm

import (
	"context"
	"database/sql"

	"gorm.io/gorm/clause"
)

type DB struct {
	Error        error
	RowsAffected int64
}

type Session struct {
	DryRun      bool
	PrepareStmt bool
	NewDB       bool
	SkipHooks   bool
	Context     context.Context
}

func (db *DB) Session(config *Session) *DB                                   { return db }
func (db *DB) WithContext(ctx context.Context) *DB                           { return db }
func (db *DB) Debug() (tx *DB)                                               { return db }
func (db *DB) Model(value interface{}) (tx *DB)                              { return db }
func (db *DB) Clauses(conds ...clause.Expression) (tx *DB)                   { return db }
func (db *DB) Table(name string, args ...interface{}) (tx *DB)               { return db }
func (db *DB) Select(query interface{}, args ...interface{}) (tx *DB)        { return db }
func (db *DB) Omit(columns ...string) (tx *DB)                               { return db }
func (db *DB) Where(query interface{}, args ...interface{}) (tx *DB)         { return db }
func (db *DB) Not(query interface{}, args ...interface{}) (tx *DB)           { return db }
func (db *DB) Or(query interface{}, args ...interface{}) (tx *DB)            { return db }
func (db *DB) Order(value interface{}) (tx *DB)                              { return db }
func (db *DB) Limit(limit int) (tx *DB)                                      { return db }
func (db *DB) Scopes(funcs ...func(*DB) *DB) (tx *DB)                        { return db }
func (db *DB) Unscoped() (tx *DB)                                            { return db }
func (db *DB) Raw(sql string, values ...interface{}) (tx *DB)                { return db }
func (db *DB) Create(value interface{}) (tx *DB)                             { return db }
func (db *DB) CreateInBatches(value interface{}, batchSize int) (tx *DB)     { return db }
func (db *DB) Save(value interface{}) (tx *DB)                               { return db }
func (db *DB) First(dest interface{}, conds ...interface{}) (tx *DB)         { return db }
func (db *DB) Take(dest interface{}, conds ...interface{}) (tx *DB)          { return db }
func (db *DB) Find(dest interface{}, conds ...interface{}) (tx *DB)          { return db }
func (db *DB) FirstOrCreate(dest interface{}, conds ...interface{}) (tx *DB) { return db }
func (db *DB) Update(column string, value interface{}) (tx *DB)              { return db }
func (db *DB) Updates(values interface{}) (tx *DB)                           { return db }
func (db *DB) UpdateColumn(column string, value interface{}) (tx *DB)        { return db }
func (db *DB) UpdateColumns(values interface{}) (tx *DB)                     { return db }
func (db *DB) Delete(value interface{}, conds ...interface{}) (tx *DB)       { return db }
func (db *DB) Scan(dest interface{}) (tx *DB)                                { return db }
func (db *DB) Row() *sql.Row                                                 { return nil }
func (db *DB) Exec(sql string, values ...interface{}) (tx *DB)               { return db }
func (db *DB) Begin(opts ...*sql.TxOptions) *DB                              { return db }
func (db *DB) Commit() *DB                                                   { return db }
func (db *DB) Rollback() *DB                                                 { return db }
func (db *DB) Transaction(fc func(tx *DB) error, opts ...*sql.TxOptions) (err error) {
	return fc(db)
}
