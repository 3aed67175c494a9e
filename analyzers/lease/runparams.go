package lease

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Applications retry a lock they could not get through a helper of their
// own that calls the func it is handed until it succeeds:
//
//	err = utils.RetryFunc(10, func() error { return locker.TryLock() })
//	if err != nil { return err }
//	defer locker.Unlock()
//
// The helper returns holding the lock whenever the func it ran did: the
// call is the closure's acquire. A function runs a parameter so when the
// parameter is a func() error, the function returns an error too, and its
// body calls the parameter itself, outside any go statement or func
// literal (RunParamFact). A func that takes something (a transaction
// runner's func(tx) error, whose lock ends with the transaction) is not
// read so. Like GoParamFact, the fact is read from
// syntax and types before the relevance test: a utils package imports
// nothing catalogued. Whether the helper returns the func's failure is not
// checked: a helper that swallowed it would be read as holding a lock it
// may not hold.

// RunParamFact: the function calls the func() error values passed as
// Params (receiver excluded) before it returns its own error, and the func
// values passed as Calls, of any type, before it returns.
//
// Calls carries a lease into a method value handed to a plain helper: a
// controller's processNextItem(queue, c.syncHandler) calls the handler
// from a func literal it calls itself, so the handler runs under the
// lease the worker runs under. Params is the narrower reading that makes
// a retried closure's acquire the helper's (resolveRunParam).
type RunParamFact struct {
	Params []int
	Calls  []int
	// Contexts lists the func parameters that every call in the body hands
	// a context parameter of the function unchanged (ctxsessions.go).
	Contexts []ContextPass
}

// A ContextPass says that every call of the func parameter Func passes the
// context parameter From, unchanged, as its argument Arg (indexes exclude
// the receiver): a savepoint helper's fn(ctx), whose callback then runs on
// the transaction the caller's context carries.
type ContextPass struct {
	Func, Arg, From int
}

func (*RunParamFact) AFact() {}
func (f *RunParamFact) String() string {
	s := fmt.Sprintf("runs params %v before it returns", slices.Concat(f.Params, f.Calls))
	for _, c := range f.Contexts {
		s += fmt.Sprintf("; hands param %d its param %d as argument %d", c.Func, c.From, c.Arg)
	}
	return s
}

// exportRunParams exports a RunParamFact for each declared function of the
// package that calls one of its func parameters itself.
func (b *builder) exportRunParams() {
	for _, file := range b.pass.Files {
		for _, d := range file.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok || decl.Body == nil {
				continue
			}
			fn, ok := b.pass.TypesInfo.Defs[decl.Name].(*types.Func)
			if !ok {
				continue
			}
			var f RunParamFact
			if lastResultError(fn.Signature()) {
				f.Params = b.calledErrParams(fn, decl.Body)
			}
			f.Calls = b.calledFuncParams(fn, decl.Body)
			f.Contexts = b.passedContexts(fn, decl.Body)
			if len(f.Params)+len(f.Calls)+len(f.Contexts) > 0 {
				b.pass.ExportObjectFact(fn, &f)
			}
		}
	}
}

// calledFuncParams returns the indexes of fn's func parameters that body
// calls before it returns: outside go statements and outside func
// literals, or in a func literal the body calls itself (processItem :=
// func(obj any) error { ...; return syncer(key) }; processItem(obj)).
func (b *builder) calledFuncParams(fn *types.Func, body *ast.BlockStmt) []int {
	index := make(map[*types.Var]int)
	for i, p := range funcParams(fn) {
		if p != nil {
			index[p] = i
		}
	}
	if len(index) == 0 {
		return nil
	}
	run := b.calledLiterals(body)
	var out []int
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.FuncLit:
			return run[x]
		case *ast.CallExpr:
			if i, ok := index[b.calledVar(x)]; ok && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
		return true
	})
	slices.Sort(out)
	return out
}

// calledLiterals returns the func literals of body that body calls
// outside go statements: at once (func() { ... }()) or through the local
// variable they are assigned to.
func (b *builder) calledLiterals(body *ast.BlockStmt) map[*ast.FuncLit]bool {
	assigned := make(map[*types.Var][]*ast.FuncLit)
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, rhs := range as.Rhs {
				lit, ok := ast.Unparen(rhs).(*ast.FuncLit)
				id, isID := as.Lhs[i].(*ast.Ident)
				if !ok || !isID {
					continue
				}
				if v, ok := b.pass.TypesInfo.ObjectOf(id).(*types.Var); ok {
					assigned[v] = append(assigned[v], lit)
				}
			}
		}
		return true
	})
	run := make(map[*ast.FuncLit]bool)
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.CallExpr:
			if lit, ok := ast.Unparen(x.Fun).(*ast.FuncLit); ok {
				run[lit] = true
			}
			for _, lit := range assigned[b.calledVar(x)] {
				run[lit] = true
			}
		}
		return true
	})
	return run
}

// calledVar returns the variable a call calls (f(x) with f a variable),
// or nil.
func (b *builder) calledVar(call *ast.CallExpr) *types.Var {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := b.pass.TypesInfo.Uses[id].(*types.Var)
	return v
}

// calledErrParams returns the indexes of fn's func() error parameters that
// body calls outside go statements and func literals.
func (b *builder) calledErrParams(fn *types.Func, body *ast.BlockStmt) []int {
	params := fn.Signature().Params()
	index := make(map[*types.Var]int)
	for i := range params.Len() {
		if sig, ok := params.At(i).Type().Underlying().(*types.Signature); ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 && lastResultError(sig) {
			index[params.At(i)] = i
		}
	}
	if len(index) == 0 {
		return nil
	}
	var out []int
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GoStmt, *ast.FuncLit:
			return false
		case *ast.CallExpr:
			id, ok := ast.Unparen(x.Fun).(*ast.Ident)
			if !ok {
				return true
			}
			if v, ok := b.pass.TypesInfo.Uses[id].(*types.Var); ok {
				if i, ok := index[v]; ok && !slices.Contains(out, i) {
					out = append(out, i)
				}
			}
		}
		return true
	})
	slices.Sort(out)
	return out
}

// resolveRunParam resolves a call of fn, a function with a RunParamFact,
// that passes it a closure of this package, or a function or method value,
// that acquires: the call takes its lock when it returns no error.
func (b *builder) resolveRunParam(call *ssa.CallCommon, fn *types.Func) (callee, bool) {
	var f RunParamFact
	if !b.pass.ImportObjectFact(fn.Origin(), &f) {
		return callee{}, false
	}
	for _, i := range f.Params {
		if c, ok := b.runAcquire(fn, funcValue(capturedValue(arg(call, i))), "the closure "+shortName(fn)+" runs"); ok {
			return c, true
		}
	}
	return callee{}, false
}

// runAcquire reads target, the func value a call of fn runs and returns
// only when target returned no error, as the call's acquire when target
// takes a lock: a closure of this package (named closure), or a function
// or method value whose role fact says it acquires (named fn(target)).
func (b *builder) runAcquire(fn *types.Func, target *ssa.Function, closure string) (callee, bool) {
	if target == nil {
		return callee{}, false
	}
	r, what := b.closureRoles[target], closure
	if obj, ok := target.Object().(*types.Func); ok && target.Parent() == nil {
		if f := b.roleFact(obj); f != nil {
			r = lockRole{role: f.Role, system: f.System, claim: f.Claim, dispatch: f.Dispatch}
		}
		what = shortName(fn) + "(" + shortName(obj) + ")"
	}
	if r.role&(RoleAcquire|RoleTryAcquire) == 0 {
		return callee{}, false
	}
	return callee{fn: fn, role: RoleTryAcquire, system: r.system, claim: r.claim, dispatch: r.dispatch, what: what}, true
}

// retriedAcquire resolves a call of a retry library (a Spawner with
// Retry) whose function takes a lock as the closure's acquire, as
// resolveRunParam does for the application's own helpers: the call
// returns holding the lock whenever it returns no error.
func (b *builder) retriedAcquire(call *ssa.CallCommon, fn *types.Func) (callee, bool) {
	sp := b.ix.lookupSpawner(fn)
	if sp == nil || !sp.Retry {
		return callee{}, false
	}
	return b.runAcquire(fn, funcValue(capturedValue(spawnedArg(call, sp))), shortName(fn)+"'s retried closure")
}

// passedContexts returns, for each func parameter of fn that body calls,
// the context parameter every one of those calls passes unchanged, where
// body never assigns it.
func (b *builder) passedContexts(fn *types.Func, body *ast.BlockStmt) []ContextPass {
	params := fn.Signature().Params()
	index := make(map[*types.Var]int)
	for i := range params.Len() {
		index[params.At(i)] = i
	}
	calls := make(map[int][]*ast.CallExpr)
	assigned := make(map[*types.Var]bool)
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if v := b.calledVar(x); v != nil {
				if i, ok := index[v]; ok {
					calls[i] = append(calls[i], x)
				}
			}
		case *ast.AssignStmt:
			for _, lhs := range x.Lhs {
				if id, ok := lhs.(*ast.Ident); ok {
					if v, ok := b.pass.TypesInfo.ObjectOf(id).(*types.Var); ok {
						assigned[v] = true
					}
				}
			}
		}
		return true
	})
	var out []ContextPass
	for i := range params.Len() {
		if len(calls[i]) == 0 {
			continue
		}
		for k := range calls[i][0].Args {
			if from, ok := b.sameContextParam(calls[i], k, index, assigned); ok {
				out = append(out, ContextPass{Func: i, Arg: k, From: from})
			}
		}
	}
	return out
}

// sameContextParam returns the context parameter that every call passes
// as its argument k, when it is one body never assigns.
func (b *builder) sameContextParam(calls []*ast.CallExpr, k int, index map[*types.Var]int, assigned map[*types.Var]bool) (int, bool) {
	var from *types.Var
	for _, call := range calls {
		if k >= len(call.Args) || call.Ellipsis.IsValid() {
			return 0, false
		}
		id, ok := ast.Unparen(call.Args[k]).(*ast.Ident)
		if !ok {
			return 0, false
		}
		v, ok := b.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || from != nil && v != from {
			return 0, false
		}
		from = v
	}
	i, ok := index[from]
	if !ok || assigned[from] || !isContext(from.Type()) {
		return 0, false
	}
	return i, true
}
