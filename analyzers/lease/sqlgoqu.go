package lease

import (
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// goqu builds statements from expression values rather than SQL text:
//
//	goqu.Update("jobs").Set(goqu.Record{"state": "done"}).
//		Where(goqu.C("id").Eq(id), goqu.C("fence").Lt(tok)).Executor().Exec()
//
// reads as "UPDATE jobs SET state = <hole> WHERE id = <hole> AND fence <
// <hole tok>". The conditions goqu.Ex{"fence": goqu.Op{"lt": tok}},
// goqu.L("fence < ?", tok), goqu.And and goqu.Or read the same way; any
// other expression is a condition out of sight.

// pkgGoqu is doug-martin/goqu; pkgGoquExec and pkgGoquExp its executor and
// expression packages (major version removed).
const (
	pkgGoqu     = "github.com/doug-martin/goqu"
	pkgGoquExec = "github.com/doug-martin/goqu/exec"
	pkgGoquExp  = "github.com/doug-martin/goqu/exp"
)

// goquOps maps goqu's comparison methods and goqu.Op keys to SQL.
func goquOps() map[string]string {
	return map[string]string{
		"Eq": "=", "Neq": "<>", "Lt": "<", "Lte": "<=", "Gt": ">", "Gte": ">=",
		"eq": "=", "neq": "<>", "lt": "<", "lte": "<=", "gt": ">", "gte": ">=",
	}
}

// goquPred renders one goqu condition.
func (f *folder) goquPred(e ssa.Value, depth int) string {
	if depth > maxFoldDepth {
		return f.hole(nil)
	}
	inner := unwrap(e)
	if typeName(inner.Type()) == "Ex" {
		return f.goquEx(inner, depth)
	}
	p := producer(inner)
	if p == nil {
		return f.hole(nil)
	}
	fn := calleeFunc(p.Common())
	if fn == nil || fn.Pkg() == nil {
		return f.hole(nil)
	}
	path := normalizePath(fn.Pkg().Path())
	if path != pkgGoqu && path != pkgGoquExp {
		return f.hole(nil)
	}
	c := p.Common()
	switch name := fn.Name(); name {
	case "L", "Literal":
		return "(" + f.bind(arg(c, 0), arg(c, 1), depth) + ")"
	case "And", "Or":
		exprs, known := f.exprList(arg(c, 0), depth)
		if !known || len(exprs) == 0 {
			return f.hole(nil)
		}
		var parts []string
		for _, x := range exprs {
			parts = append(parts, f.goquPred(x, depth+1))
		}
		return "(" + strings.Join(parts, " "+strings.ToUpper(name)+" ") + ")"
	default:
		if op, ok := goquOps()[name]; ok && c.IsInvoke() {
			if col, ok := f.goquIdent(c.Value, depth); ok {
				return col + " " + op + " " + f.hole(unwrap(arg(c, 0)))
			}
		}
	}
	return f.hole(nil)
}

// goquEx renders goqu.Ex{"id": id, "fence": goqu.Op{"lt": tok}}; a key
// may be a helper's column parameter (goqu.Ex{column: value}).
func (f *folder) goquEx(ex ssa.Value, depth int) string {
	mm := makeMapOf(ex)
	if mm == nil {
		return f.hole(nil)
	}
	var parts []string
	for _, u := range mapUpdates(mm) {
		col, ok := f.constant(u.Key, depth)
		if !ok {
			return f.hole(nil)
		}
		v := unwrap(u.Value)
		if typeName(v.Type()) == "Op" {
			om := makeMapOf(v)
			if om == nil {
				return f.hole(nil)
			}
			for _, ou := range mapUpdates(om) {
				key, _ := constString(ou.Key)
				op, ok := goquOps()[key]
				if !ok {
					op = "LIKE" // in, like, is and the rest: not a fence
				}
				parts = append(parts, col+" "+op+" "+f.hole(unwrap(ou.Value)))
			}
			continue
		}
		parts = append(parts, col+" = "+f.hole(v))
	}
	if len(parts) == 0 {
		return f.hole(nil)
	}
	return "(" + strings.Join(parts, " AND ") + ")"
}

// goquIdent names the column of goqu.C("fence"), goqu.I("jobs.fence") or
// goqu.T("jobs").Col("fence"), and the expression of goqu.L(`"r".fence`)
// (a literal with no arguments); the name may be a parameter of the
// helper being read (goqu.C(column) in a helper its callers give the
// column), folded with the call's argument.
func (f *folder) goquIdent(v ssa.Value, depth int) (string, bool) {
	p := producer(v)
	if p == nil {
		return "", false
	}
	fn := calleeFunc(p.Common())
	if fn == nil {
		return "", false
	}
	switch fn.Name() {
	case "C", "I", "Col":
		return f.constant(arg(p.Common(), 0), depth)
	case "L", "Literal":
		if args, known := variadic(arg(p.Common(), 1)); !known || len(args) > 0 {
			return "", false // a literal with its own placeholders: its values are out of sight
		}
		return f.constant(arg(p.Common(), 0), depth)
	}
	return "", false
}

// constant folds v alone and returns its text if all of it is constant
// (a helper's parameter counts as what its caller passed).
func (f *folder) constant(v ssa.Value, depth int) (string, bool) {
	if s, ok := constString(v); ok {
		return s, true
	}
	sub := &folder{b: f.b, busy: f.busy, bound: f.bound}
	s := sub.fold(v, depth+1)
	return s, sub.seen && len(sub.holes) == 0
}

// exprList returns the expressions of a list of goqu conditions: one built
// at the call (Where(a, b)), or a slice the code builds with append
//
//	var where []exp.Expression
//	where = append(where, goqu.C(column).Eq(value))
//	if column == "cluster" {
//		where = append(where, goqu.C("uid").Neq(node))
//	}
//	... Where(where...)
//
// read along the path the text is read on (a branch that appends is a
// choice of its own). known is false when the list comes from elsewhere,
// or is built in a loop: what a loop appends depends on what it ranges
// over, and how many times it runs (none: no condition at all) is out of
// sight.
func (f *folder) exprList(v ssa.Value, depth int) (exprs []ssa.Value, known bool) {
	if depth > maxFoldDepth {
		return nil, false
	}
	if p, ok := unwrap(v).(*ssa.Phi); ok && appendsInLoop(p) {
		return nil, false
	}
	if v = f.through(v); v == nil {
		return nil, false
	}
	if elems, ok := variadic(v); ok {
		return elems, true
	}
	call, ok := unwrap(v).(*ssa.Call)
	if !ok || !isAppend(call.Common()) {
		return nil, false
	}
	head, ok := f.exprList(call.Common().Args[0], depth+1)
	if !ok {
		return nil, false
	}
	tail, ok := variadic(call.Common().Args[1])
	if !ok {
		return nil, false
	}
	return append(slices.Clip(head), tail...), true
}

// appendsInLoop reports whether p's list comes back to p through appends
// and other phis (list = append(list, ...) in a loop whose header p is,
// under an if in the loop's body too).
func appendsInLoop(p *ssa.Phi) bool {
	seen := map[ssa.Value]bool{}
	work := slices.Clone(p.Edges)
	for len(work) > 0 {
		v := unwrap(work[len(work)-1])
		work = work[:len(work)-1]
		if v == p {
			return true
		}
		if seen[v] {
			continue
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Phi:
			work = append(work, x.Edges...)
		case *ssa.Call:
			if isAppend(x.Common()) {
				work = append(work, x.Common().Args[0])
			}
		}
	}
	return false
}

// isAppend reports whether c calls the builtin append with one list of
// elements (append(s, a, b)).
func isAppend(c *ssa.CallCommon) bool {
	b, ok := c.Value.(*ssa.Builtin)
	return ok && b.Name() == "append" && len(c.Args) == 2
}

// recordSets renders goqu.Record{"state": s} (or any map literal) as
// assignments, and anything else (a struct) as one.
func (f *folder) recordSets(v ssa.Value) string {
	if mm := makeMapOf(unwrap(v)); mm != nil {
		var parts []string
		for _, u := range mapUpdates(mm) {
			col, ok := constString(u.Key)
			if !ok {
				parts = nil
				break
			}
			parts = append(parts, col+" = "+f.hole(unwrap(u.Value)))
		}
		if len(parts) > 0 {
			return strings.Join(parts, ", ")
		}
	}
	return "x = " + f.hole(unwrap(v))
}

// goquConflict renders OnConflict(goqu.DoNothing()) and
// OnConflict(goqu.DoUpdate(target, record).Where(...)).
func (f *folder) goquConflict(v ssa.Value, depth int) string {
	var where []string
	for p := producer(v); p != nil; p = producer(callRecv(p.Common())) {
		fn := calleeFunc(p.Common())
		if fn == nil {
			break
		}
		switch fn.Name() {
		case "DoNothing":
			return " ON CONFLICT DO NOTHING"
		case "DoUpdate":
			s := " ON CONFLICT (" + f.fold(arg(p.Common(), 0), depth+1) + ") DO UPDATE SET " + f.recordSets(arg(p.Common(), 1))
			if len(where) > 0 {
				s += " WHERE " + strings.Join(where, " AND ")
			}
			return s
		case "Where":
			exprs, _ := f.exprList(arg(p.Common(), 0), depth)
			for _, e := range exprs {
				where = append(where, f.goquPred(e, depth))
			}
			continue
		}
		if !p.Common().IsInvoke() {
			break
		}
	}
	return " ON CONFLICT DO UPDATE SET x = " + f.hole(nil)
}
