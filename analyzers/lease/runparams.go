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

// RunParamFact: the function calls the func() error values passed as these
// parameters (receiver excluded) before it returns its own error.
type RunParamFact struct {
	Params []int
}

func (*RunParamFact) AFact() {}
func (f *RunParamFact) String() string {
	return fmt.Sprintf("runs params %v before it returns", f.Params)
}

// exportRunParams exports a RunParamFact for each declared function of the
// package that calls one of its func() error parameters itself.
func (b *builder) exportRunParams() {
	for _, file := range b.pass.Files {
		for _, d := range file.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok || decl.Body == nil {
				continue
			}
			fn, ok := b.pass.TypesInfo.Defs[decl.Name].(*types.Func)
			if !ok || !lastResultError(fn.Signature()) {
				continue
			}
			if params := b.calledErrParams(fn, decl.Body); len(params) > 0 {
				b.pass.ExportObjectFact(fn, &RunParamFact{Params: params})
			}
		}
	}
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
// that passes it a closure of this package that acquires: the call takes
// the closure's lock when it returns no error.
func (b *builder) resolveRunParam(call *ssa.CallCommon, fn *types.Func) (callee, bool) {
	var f RunParamFact
	if !b.pass.ImportObjectFact(fn.Origin(), &f) {
		return callee{}, false
	}
	for _, i := range f.Params {
		clo := funcValue(capturedValue(arg(call, i)))
		if clo == nil {
			continue
		}
		if r := b.closureRoles[clo]; r.role&(RoleAcquire|RoleTryAcquire) != 0 {
			return callee{fn: fn, role: RoleTryAcquire, system: r.system, claim: r.claim, dispatch: r.dispatch,
				what: "the closure " + shortName(fn) + " runs"}, true
		}
	}
	return callee{}, false
}
