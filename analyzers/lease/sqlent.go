package lease

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// ent (entgo.io/ent) generates a client into the application's module, and
// every write that client makes ends in one of five functions of ent's
// sqlgraph package, called from the generated builders' sqlSave (create,
// update) and sqlExec (delete) methods:
//
//	func (_u *DocUpdateOne) sqlSave(ctx context.Context) (*Doc, error) {
//		_spec := sqlgraph.NewUpdateSpec(doc.Table, doc.Columns, ...)
//		...
//		if err = sqlgraph.UpdateNode(ctx, _u.driver, _spec); err != nil {
//
// Those calls are catalogued writes; the table is read from the spec's
// constructor (sqlgraph.NewCreateSpec(doc.Table, ...), or the older
// &sqlgraph.UpdateSpec{Node: &sqlgraph.NodeSpec{Table: doc.Table}}), and
// the write facts carry them up through the generated Save and Exec to the
// application's calls (client.Doc.UpdateOneID(id).SetBody(b).Save(ctx)).
// The generated Save hands sqlSave to the generic withHooks, which calls
// it: a method value passed to a function of the package that calls that
// parameter is a call of the method (passedWrite).
//
// The predicates and the ON CONFLICT options live in the builder at run
// time, so the generated code cannot say whether a write is fenced; the
// application's call can (entFence, sqlentfence.go).

// pkgSqlgraph is ent's graph-to-SQL package.
const pkgSqlgraph = "entgo.io/ent/dialect/sql/sqlgraph"

// entCatalog returns the catalog rows of ent's sqlgraph writes.
func entCatalog() []API {
	var c []API
	for _, name := range []string{"CreateNode", "BatchCreate", "UpdateNode", "UpdateNodes", "DeleteNodes"} {
		c = append(c, API{Pkg: pkgSqlgraph, Name: name, Role: RoleWrite, System: SQL, Fence: EntGraph, Arg: 2})
	}
	return c
}

// entWrite classifies a call of a sqlgraph write: unfenced, as far as the
// generated code shows (its predicates come from the builder at run time),
// and named by the statement it sends: "sqlgraph.UpdateNode (UPDATE docs)".
func (b *builder) entWrite(w *Write, call ssa.CallInstruction, api *API) *Write {
	verb := map[string]string{
		"CreateNode": "INSERT INTO", "BatchCreate": "INSERT INTO",
		"UpdateNode": "UPDATE", "UpdateNodes": "UPDATE", "DeleteNodes": "DELETE FROM",
	}[api.Name]
	table := entSpecTable(arg(call.Common(), api.Arg), 0)
	if table == "" {
		table = "<run-time name>"
	}
	w.What = fmt.Sprintf("%s (%s %s)", w.What, verb, table)
	return w
}

// entSpecTable returns the table a sqlgraph spec names, when the generated
// code names it with a constant, or "".
func entSpecTable(v ssa.Value, depth int) string {
	if v == nil || depth > 3 {
		return ""
	}
	v = unwrap(v)
	if c := producer(v); c != nil {
		fn := calleeFunc(c.Common())
		if fn == nil {
			return ""
		}
		if fn.Pkg() != nil && fn.Pkg().Path() == pkgSqlgraph {
			switch fn.Name() {
			case "NewCreateSpec", "NewUpdateSpec", "NewDeleteSpec":
				s, _ := constString(arg(c.Common(), 0))
				return s
			}
			return ""
		}
		// The spec built by a method of the generated builder
		// (_node, _spec := _c.createSpec()): read its returns.
		if callee := c.Common().StaticCallee(); callee != nil {
			return returnedSpecTable(callee, v, depth)
		}
		return ""
	}
	if alloc, ok := v.(*ssa.Alloc); ok {
		if node := fieldStored(alloc, "Node"); node != nil {
			return entSpecTable(node, depth+1)
		}
		if table := fieldStored(alloc, "Table"); table != nil {
			s, _ := constString(table)
			return s
		}
	}
	return ""
}

// returnedSpecTable reads the table of the spec callee returns as v: the
// same result of every return must name the same table.
func returnedSpecTable(callee *ssa.Function, v ssa.Value, depth int) string {
	index := 0
	if x, ok := v.(*ssa.Extract); ok {
		index = x.Index
	}
	table := ""
	for _, blk := range callee.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok || index >= len(ret.Results) {
			continue
		}
		if _, isConst := ret.Results[index].(*ssa.Const); isConst {
			continue // return nil, err
		}
		t := entSpecTable(ret.Results[index], depth+1)
		if t == "" || table != "" && t != table {
			return ""
		}
		table = t
	}
	return table
}

// fieldStored returns the one value stored into field name of the struct
// alloc points to, or nil.
func fieldStored(alloc *ssa.Alloc, name string) ssa.Value {
	var stored ssa.Value
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fieldName(fa.X.Type(), fa.Field) != name {
			continue
		}
		for _, r := range *fa.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == fa {
				if stored != nil {
					return nil
				}
				stored = st.Val
			}
		}
	}
	return stored
}

// passedWrite is a call that hands a declared method or function of the
// package, as a value, to a function of the package that calls that
// parameter (ent's Save: withHooks(ctx, _c.sqlSave, _c.mutation,
// _c.hooks)): the write of the method, as a call of it would be.
func (b *builder) passedWrite(fn *ssa.Function, call ssa.CallInstruction) *Write {
	callee := call.Common().StaticCallee()
	if callee == nil || call.Common().IsInvoke() {
		return nil
	}
	if callee.Origin() != nil {
		callee = callee.Origin()
	}
	if callee.Pkg == nil || callee.Pkg.Pkg != b.pass.Pkg || len(callee.Blocks) == 0 {
		return nil
	}
	for i, a := range call.Common().Args {
		obj := passedFunc(a)
		if obj == nil || i >= len(callee.Params) || !callsParam(callee, callee.Params[i]) {
			continue
		}
		var wf WritesFact
		if b.fact(obj, &wf) {
			w := newWrite(fn, call, wf.System, shortName(obj))
			w.Via, w.Dispatch, w.outsideOf, w.Append = wf.What, wf.Dispatch, wf.OutsideOf, wf.Append
			w.reachSites(&wf, nil)
			w.sitesOf = obj
			return w
		}
	}
	return nil
}

// passedFunc returns the declared method or function v is a value of
// (x.sqlSave, a bound method; or a declared func), or nil.
func passedFunc(v ssa.Value) *types.Func {
	switch x := v.(type) {
	case *ssa.MakeClosure:
		if f, ok := x.Fn.(*ssa.Function); ok && f.Synthetic != "" {
			obj, _ := f.Object().(*types.Func)
			return obj // a bound method wrapper
		}
	case *ssa.Function:
		return declaredFunc(x)
	}
	return nil
}

// callsParam reports whether fn calls its parameter p itself (not in a
// goroutine or a deferred call, whose timing differs), directly or through
// the cell a closure's capture spills it to.
func callsParam(fn *ssa.Function, p *ssa.Parameter) bool {
	for _, ref := range *p.Referrers() {
		switch x := ref.(type) {
		case *ssa.Call:
			if x.Call.Value == p {
				return true
			}
		case *ssa.Store:
			if cell, ok := x.Addr.(*ssa.Alloc); ok && x.Val == p && callsLoaded(cell) {
				return true
			}
		}
	}
	return false
}

// callsLoaded reports whether a value loaded from cell is called in the
// function that allocates it.
func callsLoaded(cell *ssa.Alloc) bool {
	for _, ref := range *cell.Referrers() {
		load, ok := ref.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			continue
		}
		for _, r := range *load.Referrers() {
			if c, ok := r.(*ssa.Call); ok && c.Call.Value == load {
				return true
			}
		}
	}
	return false
}
