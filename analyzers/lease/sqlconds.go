package lease

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Applications pass the condition of a write into a helper that builds
// and sends the rest of the statement:
//
//	func (g *gc) batchDelete(ctx context.Context, table string, filter sq.Sqlizer) (int64, error) {
//		sql, args, _ := psql.Select("id").From(table).Where(filter).Limit(1000).ToSql()
//		return g.conn.Exec(ctx, "WITH rows AS ("+sql+") DELETE FROM "+table+" WHERE id IN (SELECT id FROM rows)", args...)
//	}
//
// Inside the helper the rows it deletes are out of sight (an Unseen
// write). Its SQLCondFact keeps the statement with the holes that its
// parameters fill, and each call is read as that statement with the
// caller's arguments in them: batchDelete(ctx, "sessions",
// sq.Lt{"expires_at": cutoff}) is a delete by age, batchDelete(ctx,
// "runs", sq.Eq{"owner": me}) an unfenced write.

// SQLCondFact: the function sends one SQL write whose text its callers'
// arguments complete (a condition, a value, a name).
type SQLCondFact struct {
	System System
	Text   string     // the statement, with sqlscan.HoleMarker(n) for hole n
	Holes  []CondHole // hole n is Holes[n-1]
	What   string     // the database call: "Exec (DELETE tuples) at gc.go:227"
}

// A CondHole is a hole of a SQLCondFact's statement.
type CondHole struct {
	// Param is the parameter (receiver excluded) whose argument fills the
	// hole, or -1 when it is filled inside the function, out of sight.
	Param int
	// Text says the hole may hold SQL text, not only a value; Open that it
	// stands where a condition goes.
	Text, Open bool
	// Builder is the import path of the query builder whose condition
	// value (sq.Lt{...}) fills the hole, or "".
	Builder string
}

func (*SQLCondFact) AFact() {}
func (f *SQLCondFact) String() string {
	var params []string
	for n, h := range f.Holes {
		if h.Param >= 0 {
			params = append(params, fmt.Sprintf("%d=param %d", n+1, h.Param))
		}
	}
	return fmt.Sprintf("sql cond [%s]: %s", strings.Join(params, " "), f.What)
}

// condFact returns the SQLCondFact a write of fn whose open holes are all
// filled by fn's parameters deserves, or nil.
func (b *builder) condFact(w *Write, text sqlText, open []int) *SQLCondFact {
	fn := w.Fn
	if fn == nil || declaredFunc(fn) == nil || len(open) == 0 {
		return nil
	}
	f := &SQLCondFact{System: w.System, Text: text.text, Holes: make([]CondHole, len(text.holes))}
	for i, h := range text.holes {
		f.Holes[i] = CondHole{Param: paramIndex(fn, h.value), Text: h.text, Builder: h.builder}
	}
	for _, n := range open {
		if f.Holes[n-1].Param < 0 {
			return nil // a condition made in fn, out of sight
		}
		f.Holes[n-1].Open = true
	}
	return f
}

// condText writes out the statement of a SQLCondFact as the call fills
// it: each parameter's hole holds the argument's text or condition.
func (b *builder) condText(call ssa.CallInstruction, cf *SQLCondFact) sqlText {
	f := &folder{b: b, busy: make(map[any]bool), seen: true}
	text := mapMarkers(cf.Text, len(cf.Holes), func(n int) string {
		if n == 0 {
			return f.hole(nil) // a malformed marker
		}
		return f.condHole(call, cf.Holes[n-1])
	})
	return sqlText{text: text, holes: f.holes}
}

// condHole fills one hole of a SQLCondFact's statement at call.
func (f *folder) condHole(call ssa.CallInstruction, h CondHole) string {
	var a ssa.Value
	if h.Param >= 0 {
		a = arg(call.Common(), h.Param)
	}
	switch {
	case a == nil && h.Text:
		return f.hole(nil)
	case a == nil:
		return f.hole(constant0())
	case h.Builder != "" && !isString(a.Type()):
		if g := f.b.grammarOf(h.Builder); g != nil {
			return f.pred(g, a, nil, 0)
		}
	case h.Open && isString(a.Type()):
		return "(" + f.fold(a, 0) + ")"
	case h.Text && isString(a.Type()):
		return f.fold(a, 0)
	}
	return f.hole(unwrap(a))
}

// sameCondFact reports whether two SQLCondFacts say the same.
func sameCondFact(a, b *SQLCondFact) bool {
	return a.System == b.System && a.Text == b.Text && a.What == b.What && slices.Equal(a.Holes, b.Holes)
}
