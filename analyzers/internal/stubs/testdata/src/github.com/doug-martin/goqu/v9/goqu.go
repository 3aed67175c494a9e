// Package goqu is a stub of github.com/doug-martin/goqu/v9 v9.19.0 for
// analysistest fixtures: real signatures, no behaviour.
package goqu

import (
	"github.com/doug-martin/goqu/v9/exec"
	"github.com/doug-martin/goqu/v9/exp"
)

type (
	Ex     = exp.Ex
	Op     = exp.Op
	Record = exp.Record
)

func C(col string) exp.IdentifierExpression                                   { return nil }
func I(ident string) exp.IdentifierExpression                                 { return nil }
func L(sql string, args ...interface{}) exp.LiteralExpression                 { return nil }
func And(expressions ...exp.Expression) exp.ExpressionList                    { return nil }
func Or(expressions ...exp.Expression) exp.ExpressionList                     { return nil }
func DoNothing() exp.ConflictExpression                                       { return nil }
func DoUpdate(target string, update interface{}) exp.ConflictUpdateExpression { return nil }

func Update(table interface{}) *UpdateDataset { return nil }
func Insert(table interface{}) *InsertDataset { return nil }
func Delete(table interface{}) *DeleteDataset { return nil }

type Database struct{}

func (d *Database) Update(table interface{}) *UpdateDataset { return nil }
func (d *Database) Insert(table interface{}) *InsertDataset { return nil }
func (d *Database) Delete(table interface{}) *DeleteDataset { return nil }

type UpdateDataset struct{}

func (ud *UpdateDataset) Set(values interface{}) *UpdateDataset                { return ud }
func (ud *UpdateDataset) Where(expressions ...exp.Expression) *UpdateDataset   { return ud }
func (ud *UpdateDataset) Prepared(prepared bool) *UpdateDataset                { return ud }
func (ud *UpdateDataset) ToSQL() (sql string, params []interface{}, err error) { return }
func (ud *UpdateDataset) Executor() exec.QueryExecutor                         { return exec.QueryExecutor{} }

type InsertDataset struct{}

func (id *InsertDataset) Rows(rows ...interface{}) *InsertDataset                   { return id }
func (id *InsertDataset) Cols(cols ...interface{}) *InsertDataset                   { return id }
func (id *InsertDataset) Vals(vals ...[]interface{}) *InsertDataset                 { return id }
func (id *InsertDataset) OnConflict(conflict exp.ConflictExpression) *InsertDataset { return id }
func (id *InsertDataset) ToSQL() (sql string, params []interface{}, err error)      { return }
func (id *InsertDataset) Executor() exec.QueryExecutor                              { return exec.QueryExecutor{} }

type DeleteDataset struct{}

func (dd *DeleteDataset) Where(expressions ...exp.Expression) *DeleteDataset   { return dd }
func (dd *DeleteDataset) ToSQL() (sql string, params []interface{}, err error) { return }
func (dd *DeleteDataset) Executor() exec.QueryExecutor                         { return exec.QueryExecutor{} }

func From(table ...interface{}) *SelectDataset { return nil }

func (d *Database) From(from ...interface{}) *SelectDataset { return nil }

type SelectDataset struct{}

func (sd *SelectDataset) From(from ...interface{}) *SelectDataset              { return sd }
func (sd *SelectDataset) Where(expressions ...exp.Expression) *SelectDataset   { return sd }
func (sd *SelectDataset) Limit(limit uint) *SelectDataset                      { return sd }
func (sd *SelectDataset) Update() *UpdateDataset                               { return nil }
func (sd *SelectDataset) Delete() *DeleteDataset                               { return nil }
func (sd *SelectDataset) ToSQL() (sql string, params []interface{}, err error) { return }
