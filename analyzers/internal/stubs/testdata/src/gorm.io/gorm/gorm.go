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

// DeletedAt marks a model soft-deleted: Delete stamps it instead.
type DeletedAt sql.NullTime

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

func Expr(expr string, args ...interface{}) clause.Expr { return clause.Expr{SQL: expr, Vars: args} }

// The generics API (gorm v1.30+).

type Statement struct{}

type Interface[T any] interface {
	Raw(sql string, values ...interface{}) ExecInterface[T]
	Exec(ctx context.Context, sql string, values ...interface{}) error
	CreateInterface[T]
}

type CreateInterface[T any] interface {
	ExecInterface[T]
	// chain methods available at start; Select/Omit keep CreateInterface to allow Create chaining
	Scopes(scopes ...func(db *Statement)) ChainInterface[T]
	Where(query interface{}, args ...interface{}) ChainInterface[T]
	Not(query interface{}, args ...interface{}) ChainInterface[T]
	Or(query interface{}, args ...interface{}) ChainInterface[T]
	Limit(offset int) ChainInterface[T]
	Offset(offset int) ChainInterface[T]
	Joins(query clause.JoinTarget, on func(db JoinBuilder, joinTable clause.Table, curTable clause.Table) error) ChainInterface[T]
	Preload(association string, query func(db PreloadBuilder) error) ChainInterface[T]
	Select(query string, args ...interface{}) CreateInterface[T]
	Omit(columns ...string) CreateInterface[T]
	MapColumns(m map[string]string) ChainInterface[T]
	Distinct(args ...interface{}) ChainInterface[T]
	Group(name string) ChainInterface[T]
	Having(query interface{}, args ...interface{}) ChainInterface[T]
	Order(value interface{}) ChainInterface[T]
	Build(builder clause.Builder)

	Delete(ctx context.Context) (rowsAffected int, err error)
	Update(ctx context.Context, name string, value any) (rowsAffected int, err error)
	Updates(ctx context.Context, t T) (rowsAffected int, err error)
	Count(ctx context.Context, column string) (result int64, err error)

	Table(name string, args ...interface{}) CreateInterface[T]
	Create(ctx context.Context, r *T) error
	CreateInBatches(ctx context.Context, r *[]T, batchSize int) error
	Set(assignments ...clause.Assigner) SetCreateOrUpdateInterface[T]
}

type ChainInterface[T any] interface {
	ExecInterface[T]
	Scopes(scopes ...func(db *Statement)) ChainInterface[T]
	Where(query interface{}, args ...interface{}) ChainInterface[T]
	Not(query interface{}, args ...interface{}) ChainInterface[T]
	Or(query interface{}, args ...interface{}) ChainInterface[T]
	Limit(offset int) ChainInterface[T]
	Offset(offset int) ChainInterface[T]
	Joins(query clause.JoinTarget, on func(db JoinBuilder, joinTable clause.Table, curTable clause.Table) error) ChainInterface[T]
	Preload(association string, query func(db PreloadBuilder) error) ChainInterface[T]
	Select(query string, args ...interface{}) ChainInterface[T]
	Omit(columns ...string) ChainInterface[T]
	MapColumns(m map[string]string) ChainInterface[T]
	Distinct(args ...interface{}) ChainInterface[T]
	Group(name string) ChainInterface[T]
	Having(query interface{}, args ...interface{}) ChainInterface[T]
	Order(value interface{}) ChainInterface[T]
	Set(assignments ...clause.Assigner) SetUpdateOnlyInterface[T]

	Build(builder clause.Builder)

	Table(name string, args ...interface{}) ChainInterface[T]
	Delete(ctx context.Context) (rowsAffected int, err error)
	Update(ctx context.Context, name string, value any) (rowsAffected int, err error)
	Updates(ctx context.Context, t T) (rowsAffected int, err error)
	Count(ctx context.Context, column string) (result int64, err error)
}

// SetUpdateOnlyInterface is returned by Set after chaining; only Update is allowed
type SetUpdateOnlyInterface[T any] interface {
	Update(ctx context.Context) (rowsAffected int, err error)
}

// SetCreateOrUpdateInterface is returned by Set at start; Create or Update are allowed
type SetCreateOrUpdateInterface[T any] interface {
	Create(ctx context.Context) error
	Update(ctx context.Context) (rowsAffected int, err error)
}

type ExecInterface[T any] interface {
	Scan(ctx context.Context, r interface{}) error
	First(context.Context) (T, error)
	Last(ctx context.Context) (T, error)
	Take(context.Context) (T, error)
	Find(ctx context.Context) ([]T, error)
	FindInBatches(ctx context.Context, batchSize int, fc func(data []T, batch int) error) error
	Row(ctx context.Context) *sql.Row
	Rows(ctx context.Context) (*sql.Rows, error)
}

type JoinBuilder interface {
	Select(...string) JoinBuilder
	Omit(...string) JoinBuilder
	Where(query interface{}, args ...interface{}) JoinBuilder
	Not(query interface{}, args ...interface{}) JoinBuilder
	Or(query interface{}, args ...interface{}) JoinBuilder
}

type PreloadBuilder interface {
	Select(...string) PreloadBuilder
	Omit(...string) PreloadBuilder
	Where(query interface{}, args ...interface{}) PreloadBuilder
	Not(query interface{}, args ...interface{}) PreloadBuilder
	Or(query interface{}, args ...interface{}) PreloadBuilder
	Limit(offset int) PreloadBuilder
	Offset(offset int) PreloadBuilder
	Order(value interface{}) PreloadBuilder
	LimitPerRecord(num int) PreloadBuilder
}

func G[T any](db *DB, opts ...clause.Expression) Interface[T] { return nil }
