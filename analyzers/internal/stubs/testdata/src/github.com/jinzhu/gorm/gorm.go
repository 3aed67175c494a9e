// Package gorm is a stub of github.com/jinzhu/gorm v1.9.16 (GORM v1) for
// analysistest fixtures: real signatures, no behaviour.
package gorm

import (
	"errors"
	"time"
)

var ErrRecordNotFound = errors.New("record not found")

type DB struct {
	Value        interface{}
	Error        error
	RowsAffected int64
}

// Model is GORM v1's base model; its DeletedAt makes Delete a soft delete.
type Model struct {
	ID        uint `gorm:"primary_key"`
	CreatedAt time.Time
	UpdatedAt time.Time
	DeletedAt *time.Time `sql:"index"`
}

func Open(dialect string, args ...interface{}) (db *DB, err error) { return nil, nil }

func (s *DB) Close() error                                                 { return nil }
func (s *DB) Where(query interface{}, args ...interface{}) *DB             { return s }
func (s *DB) Or(query interface{}, args ...interface{}) *DB                { return s }
func (s *DB) Not(query interface{}, args ...interface{}) *DB               { return s }
func (s *DB) Limit(limit interface{}) *DB                                  { return s }
func (s *DB) Offset(offset interface{}) *DB                                { return s }
func (s *DB) Order(value interface{}, reorder ...bool) *DB                 { return s }
func (s *DB) Select(query interface{}, args ...interface{}) *DB            { return s }
func (s *DB) Scopes(funcs ...func(*DB) *DB) *DB                            { return s }
func (s *DB) Unscoped() *DB                                                { return s }
func (s *DB) First(out interface{}, where ...interface{}) *DB              { return s }
func (s *DB) Find(out interface{}, where ...interface{}) *DB               { return s }
func (s *DB) Scan(dest interface{}) *DB                                    { return s }
func (s *DB) FirstOrCreate(out interface{}, where ...interface{}) *DB      { return s }
func (s *DB) Update(attrs ...interface{}) *DB                              { return s }
func (s *DB) Updates(values interface{}, ignoreProtectedAttrs ...bool) *DB { return s }
func (s *DB) UpdateColumn(attrs ...interface{}) *DB                        { return s }
func (s *DB) UpdateColumns(values interface{}) *DB                         { return s }
func (s *DB) Save(value interface{}) *DB                                   { return s }
func (s *DB) Create(value interface{}) *DB                                 { return s }
func (s *DB) Delete(value interface{}, where ...interface{}) *DB           { return s }
func (s *DB) Raw(sql string, values ...interface{}) *DB                    { return s }
func (s *DB) Exec(sql string, values ...interface{}) *DB                   { return s }
func (s *DB) Model(value interface{}) *DB                                  { return s }
func (s *DB) Table(name string) *DB                                        { return s }
func (s *DB) Begin() *DB                                                   { return s }
func (s *DB) Commit() *DB                                                  { return s }
func (s *DB) Rollback() *DB                                                { return s }
func (s *DB) RecordNotFound() bool                                         { return false }
func (s *DB) Set(name string, value interface{}) *DB                       { return s }
