package lease

import (
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
		return f.goquEx(inner)
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
		exprs, known := variadic(arg(c, 0))
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
			if col, ok := goquIdent(c.Value); ok {
				return col + " " + op + " " + f.hole(unwrap(arg(c, 0)))
			}
		}
	}
	return f.hole(nil)
}

// goquEx renders goqu.Ex{"id": id, "fence": goqu.Op{"lt": tok}}.
func (f *folder) goquEx(ex ssa.Value) string {
	mm := makeMapOf(ex)
	if mm == nil {
		return f.hole(nil)
	}
	var parts []string
	for _, u := range mapUpdates(mm) {
		col, ok := constString(u.Key)
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
// goqu.T("jobs").Col("fence").
func goquIdent(v ssa.Value) (string, bool) {
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
		return constString(arg(p.Common(), 0))
	}
	return "", false
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
			exprs, _ := variadic(arg(p.Common(), 0))
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
