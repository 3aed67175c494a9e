// Package strmangle is a stub of github.com/aarondl/strmangle v0.0.9 for
// analysistest fixtures: real signatures, no behaviour.
package strmangle

func SetParamNames(lq, rq string, start int, columns []string) string                { return "" }
func WhereClause(lq, rq string, start int, cols []string) string                     { return "" }
func SetComplement(a []string, b []string) []string                                  { return nil }
func Placeholders(useIndexPlaceholders bool, count int, start int, group int) string { return "" }
func WhereClauseRepeated(lq, rq string, start int, cols []string, count int) string  { return "" }
