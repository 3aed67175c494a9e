package lease

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Applications start their goroutines through helpers of their own that
// add a recover, a restart or a name: jitsu's safego.RunWithRestart(f)
// keeps f in a struct field and calls it from a goroutine that a method of
// that struct starts. A call of such a helper is a go statement for the
// func it is handed, so that detachedrenewal judges a renewal loop started
// through it as it judges one started with go.
//
// Which parameters a function runs in a goroutine is read from the
// package's syntax and types alone, before the relevance test: a package
// such as safego imports nothing catalogued, so no SSA is built for it,
// and its importers need the fact all the same. The fact does not make a
// package relevant (no PackageFact), so the importers of a goroutine
// helper cost nothing more.

// GoParamFact: the function runs the func values passed as these
// parameters (receiver excluded) in a goroutine that the call does not
// wait for: go f(), go func() { defer recover(); f() }(), f kept in a
// struct field that a goroutine the function starts calls, or f handed on
// to another such function.
type GoParamFact struct {
	Params []int
	// Returning lists the parameters whose funcs return something
	// (errgroup's func() error) that it runs in a goroutine too. Their
	// failure may reach whoever waits for the goroutine, so a renewal
	// started there is not judged as one started with go; work started
	// there runs under the caller's lease all the same.
	Returning []int
}

func (*GoParamFact) AFact() {}
func (f *GoParamFact) String() string {
	return fmt.Sprintf("runs params %v in a goroutine", slices.Concat(f.Params, f.Returning))
}

// goSpawns is what the package's syntax says about its goroutines.
type goSpawns struct {
	info  *types.Info
	decls map[*types.Func]*ast.FuncDecl
	// calls lists the package's functions each declared function calls
	// statically, go statements excluded.
	calls map[*types.Func][]*types.Func
	// goes lists the go statements of each declared function (its
	// literals' too), with what the goroutine calls.
	goes map[*types.Func][]*goBody
	// stores maps a func parameter to the struct fields its function
	// stores it in.
	stores map[*types.Var][]*types.Var
	// passes lists, per function, the calls that hand one of its func
	// parameters to another function.
	passes map[*types.Func][]paramPass
	// waits marks the functions that wait outside their goroutines
	// (receive, select, range over a channel, a Wait method): a helper
	// that waits for the goroutine it starts is a plain call.
	waits map[*types.Func]bool
}

// A goBody is what one go statement's goroutine calls: variables (a
// parameter the closure captured) and struct fields holding funcs.
type goBody struct {
	vars, fields map[*types.Var]bool
}

// A paramPass is a func parameter handed to a function as its argument i.
type paramPass struct {
	param  *types.Var
	callee *types.Func
	i      int
}

// exportGoParams exports a GoParamFact for each declared function of the
// package that runs a func parameter in a goroutine.
func (b *builder) exportGoParams() {
	s := b.readGoSpawns()
	found := make(map[*types.Func][]int)
	for changed := true; changed; { // helpers handing the func on to helpers
		changed = false
		for fn := range s.decls {
			for i, p := range funcParams(fn) {
				if !slices.Contains(found[fn], i) && s.spawns(fn, p, found, b.pass.ImportObjectFact) {
					found[fn] = append(found[fn], i)
					changed = true
				}
			}
		}
	}
	for fn, params := range found {
		slices.Sort(params)
		var f GoParamFact
		for _, i := range params {
			if returns(fn.Signature().Params().At(i)) {
				f.Returning = append(f.Returning, i)
			} else {
				f.Params = append(f.Params, i)
			}
		}
		b.pass.ExportObjectFact(fn, &f)
	}
}

// funcParams returns fn's parameters (receiver excluded), nil where a
// parameter is not a func.
func funcParams(fn *types.Func) []*types.Var {
	params := fn.Signature().Params()
	out := make([]*types.Var, params.Len())
	for i := range params.Len() {
		if _, ok := params.At(i).Type().Underlying().(*types.Signature); ok {
			out[i] = params.At(i)
		}
	}
	return out
}

// returns reports whether the func parameter p returns something.
func returns(p *types.Var) bool {
	sig, ok := p.Type().Underlying().(*types.Signature)
	return ok && sig.Results().Len() > 0
}

// spawns reports whether fn runs its func parameter p in a goroutine.
// found holds what is known so far of the package's functions, and
// imported reads another package's facts.
func (s *goSpawns) spawns(fn *types.Func, p *types.Var, found map[*types.Func][]int, imported func(types.Object, analysis.Fact) bool) bool {
	if p == nil || slices.ContainsFunc(s.reach(fn), func(f *types.Func) bool { return s.waits[f] }) {
		return false
	}
	for _, g := range s.goes[fn] {
		if g.vars[p] {
			return true // go p(), or a goroutine's closure that calls p
		}
	}
	if fields := s.stores[p]; len(fields) > 0 {
		for _, reached := range s.reach(fn) {
			for _, g := range s.goes[reached] {
				for _, fv := range fields {
					if g.fields[fv] {
						return true // kept in a field a goroutine fn starts calls
					}
				}
			}
		}
	}
	for _, pass := range s.passes[fn] {
		if pass.param != p {
			continue
		}
		if _, local := s.decls[pass.callee]; local {
			if slices.Contains(found[pass.callee], pass.i) {
				return true
			}
			continue
		}
		var f GoParamFact
		if pass.callee.Pkg() != nil && imported(pass.callee, &f) && (slices.Contains(f.Params, pass.i) || slices.Contains(f.Returning, pass.i)) {
			return true
		}
	}
	return false
}

// reach returns fn and the package's functions it calls, transitively.
func (s *goSpawns) reach(fn *types.Func) []*types.Func {
	out := []*types.Func{fn}
	for i := 0; i < len(out); i++ {
		for _, callee := range s.calls[out[i]] {
			if !slices.Contains(out, callee) {
				out = append(out, callee)
			}
		}
	}
	return out
}

// readGoSpawns reads the package's declared functions: what they call,
// their go statements and the func parameters they store in fields or hand
// on.
func (b *builder) readGoSpawns() *goSpawns {
	s := &goSpawns{
		info:   b.pass.TypesInfo,
		decls:  make(map[*types.Func]*ast.FuncDecl),
		calls:  make(map[*types.Func][]*types.Func),
		goes:   make(map[*types.Func][]*goBody),
		stores: make(map[*types.Var][]*types.Var),
		passes: make(map[*types.Func][]paramPass),
		waits:  make(map[*types.Func]bool),
	}
	for _, file := range b.pass.Files {
		for _, d := range file.Decls {
			if decl, ok := d.(*ast.FuncDecl); ok && decl.Body != nil {
				if fn, ok := s.info.Defs[decl.Name].(*types.Func); ok {
					s.decls[fn] = decl
				}
			}
		}
	}
	for fn, decl := range s.decls {
		s.readDecl(fn, decl)
	}
	return s
}

// readDecl records what one declared function does.
func (s *goSpawns) readDecl(fn *types.Func, decl *ast.FuncDecl) {
	params := funcParams(fn)
	isParam := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, _ := s.info.Uses[id].(*types.Var)
		if v != nil && slices.Contains(params, v) {
			return v
		}
		return nil
	}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			s.goes[fn] = append(s.goes[fn], s.goroutine(n.Call))
			return false // the goroutine's calls are g's, not fn's
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				s.waits[fn] = true
			}
		case *ast.SelectStmt:
			s.waits[fn] = true
		case *ast.RangeStmt:
			if t := s.info.TypeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Chan); ok {
					s.waits[fn] = true
				}
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" {
				s.waits[fn] = true
			}
			callee := s.staticCallee(n)
			if callee == nil {
				return true
			}
			if _, local := s.decls[callee]; local && !slices.Contains(s.calls[fn], callee) {
				s.calls[fn] = append(s.calls[fn], callee)
			}
			for i, a := range n.Args {
				if p := isParam(a); p != nil {
					s.passes[fn] = append(s.passes[fn], paramPass{param: p, callee: callee, i: i})
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if i < len(n.Rhs) && len(n.Lhs) == len(n.Rhs) {
					if p := isParam(n.Rhs[i]); p != nil {
						if fv := s.fieldOf(lhs); fv != nil {
							s.stores[p] = append(s.stores[p], fv)
						}
					}
				}
			}
		case *ast.KeyValueExpr:
			if p := isParam(n.Value); p != nil {
				if id, ok := n.Key.(*ast.Ident); ok {
					if fv, ok := s.info.Uses[id].(*types.Var); ok && fv.IsField() {
						s.stores[p] = append(s.stores[p], fv)
					}
				}
			}
		}
		return true
	})
}

// callsParam reports whether fn, a function of the package, calls its
// parameter i itself.
func (s *goSpawns) callsParam(fn *types.Func, i int) bool {
	decl, ok := s.decls[fn]
	params := fn.Signature().Params()
	if !ok || i >= params.Len() {
		return false
	}
	p := params.At(i)
	called := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && s.info.Uses[id] == p {
				called = true
			}
		}
		return !called
	})
	return called
}

// goroutine reads what the goroutine a go statement starts calls: the
// body of the closure it starts, or of the package's function, and the
// package's functions those call.
func (s *goSpawns) goroutine(call *ast.CallExpr) *goBody {
	g := &goBody{vars: make(map[*types.Var]bool), fields: make(map[*types.Var]bool)}
	var bodies []ast.Node
	seen := make(map[*types.Func]bool)
	addFunc := func(fn *types.Func) {
		if decl, ok := s.decls[fn]; ok && !seen[fn] {
			seen[fn] = true
			bodies = append(bodies, decl.Body)
		}
	}
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		bodies = append(bodies, lit.Body)
	} else {
		s.calledValue(call.Fun, g)
		if fn := s.staticCallee(call); fn != nil {
			addFunc(fn)
			s.calledArgs(call, fn, g) // go Guarded(f)
		}
	}
	for i := 0; i < len(bodies); i++ {
		ast.Inspect(bodies[i], func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			s.calledValue(c.Fun, g)
			if fn := s.staticCallee(c); fn != nil {
				addFunc(fn)
				s.calledArgs(c, fn, g)
			}
			return true
		})
	}
	return g
}

// calledArgs records the variables call hands to fn, a function of the
// package that calls that parameter itself (Guarded(f), where Guarded
// recovers and calls f).
func (s *goSpawns) calledArgs(call *ast.CallExpr, fn *types.Func, g *goBody) {
	for i, a := range call.Args {
		if id, ok := ast.Unparen(a).(*ast.Ident); ok {
			if v, ok := s.info.Uses[id].(*types.Var); ok && s.callsParam(fn, i) {
				g.vars[v] = true
			}
		}
	}
}

// calledValue records the variable or field of func type that fun, a
// called expression, reads.
func (s *goSpawns) calledValue(fun ast.Expr, g *goBody) {
	switch fun := ast.Unparen(fun).(type) {
	case *ast.Ident:
		if v, ok := s.info.Uses[fun].(*types.Var); ok {
			g.vars[v] = true
		}
	case *ast.SelectorExpr:
		if fv := s.fieldOf(fun); fv != nil {
			g.fields[fv] = true
		}
	}
}

// fieldOf returns the struct field e selects, or nil.
func (s *goSpawns) fieldOf(e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if selection := s.info.Selections[sel]; selection != nil && selection.Kind() == types.FieldVal {
		fv, _ := selection.Obj().(*types.Var)
		return fv
	}
	return nil
}

// staticCallee returns the declared function or concrete method call
// invokes, or nil (a func value, an interface method, a conversion).
func (s *goSpawns) staticCallee(call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		if selection := s.info.Selections[fun]; selection != nil && selection.Kind() != types.MethodVal {
			return nil
		}
		id = fun.Sel
	case *ast.IndexExpr: // a generic function instantiated explicitly
		if x, ok := ast.Unparen(fun.X).(*ast.Ident); ok {
			id = x
		}
	}
	if id == nil {
		return nil
	}
	fn, _ := s.info.Uses[id].(*types.Func)
	if fn == nil || isAbstract(fn) {
		return nil
	}
	return fn.Origin()
}

// helperStarts returns the goroutines that calls of goroutine helpers
// (GoParamFact) start with a func of the package, as a go statement would.
func (b *builder) helperStarts() []*Goroutine {
	var out []*Goroutine
	for _, call := range b.calls {
		plain, ok := call.(*ssa.Call)
		if !ok {
			continue
		}
		helper, params := b.goParams(plain)
		for _, i := range params {
			if fn := startedValue(arg(plain.Common(), i)); fn != nil {
				out = append(out, &Goroutine{Go: plain, Pos: plain.Pos(), Fn: fn, Helper: helper})
			}
		}
	}
	return out
}

// goParams returns the function call calls and the indexes of the
// parameters whose funcs it runs in goroutines (its GoParamFact), if any.
func (b *builder) goParams(call *ssa.Call) (*types.Func, []int) {
	helper := calleeFunc(call.Common())
	if helper == nil || isAbstract(helper) {
		return nil, nil
	}
	var f GoParamFact
	if !b.pass.ImportObjectFact(helper.Origin(), &f) {
		return nil, nil
	}
	return helper, f.Params
}

// startedValue returns the function a func value handed to a goroutine
// helper runs: a closure, a declared function, or the method of a method
// value (c.beat, whose bound wrapper is synthetic), or nil.
func startedValue(v ssa.Value) *ssa.Function {
	fn := closureValue(v, 0)
	if fn == nil {
		return nil
	}
	if fn.Synthetic != "" {
		obj, ok := fn.Object().(*types.Func)
		if !ok {
			return nil
		}
		fn = fn.Prog.FuncValue(obj)
	}
	return fn
}
