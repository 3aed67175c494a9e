// Package qm is a stub of github.com/aarondl/sqlboiler/v4/queries/qm
// v4.19.5 for analysistest fixtures: real signatures, no behaviour.
package qm

import "github.com/aarondl/sqlboiler/v4/queries"

type QueryMod interface {
	Apply(q *queries.Query)
}

type mod struct{}

func (mod) Apply(q *queries.Query) {}

func Apply(q *queries.Query, mods ...QueryMod) {}

func Where(clause string, args ...interface{}) QueryMod      { return mod{} }
func And(clause string, args ...interface{}) QueryMod        { return mod{} }
func Or(clause string, args ...interface{}) QueryMod         { return mod{} }
func WhereIn(clause string, args ...interface{}) QueryMod    { return mod{} }
func WhereNotIn(clause string, args ...interface{}) QueryMod { return mod{} }
func From(from string) QueryMod                              { return mod{} }
func Limit(limit int) QueryMod                               { return mod{} }
func OrderBy(clause string, args ...interface{}) QueryMod    { return mod{} }
func SQL(sql string, args ...interface{}) QueryMod           { return mod{} }
