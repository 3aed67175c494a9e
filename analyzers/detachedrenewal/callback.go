package detachedrenewal

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/lease"
)

// callback reports a function run while a lease is held (leaderelection's
// OnStartedLeading) whose work does not run on the ctx it is given, which
// is cancelled when the lease is lost.
func (c *checker) callback(s *lease.Signal) {
	if c.regionFenced(s.Fn, s.System) || s.EndsProcess {
		return
	}
	bg := backgroundCalls(s.Fn)
	onBackground := len(bg) > 0 && !s.Relayed
	if !onBackground && (s.Observed || !doesWork(s.Fn)) {
		return
	}
	if s.StoppedBy != "" { // the work hears of the loss from the other callback
		if !s.Awaited {
			c.m.Reportf(c.pass, c.rangeAt(s.Pos), "%s stops the work %s starts when leadership is lost, but does not wait for it to return, so a write already in flight lands after another leader starts; "+
				"wait in %s until the work has returned (a sync.WaitGroup the work marks Done)", s.StoppedBy, s.What, s.StoppedBy)
		}
		return
	}
	if onBackground {
		first := bg[0]
		c.m.Report(c.pass, analysis.Diagnostic{
			Pos: c.rangeAt(s.Pos).Pos(), End: c.rangeAt(s.Pos).End(),
			Message: sprintf("the work in %s runs on %s (line %d), not on the callback's ctx, so it never hears that leadership is lost and keeps running after another leader starts; "+
				"pass the callback's ctx, which is cancelled when the lease is lost", s.What, calleeName(first), c.pass.Fset.Position(first.Pos()).Line),
			SuggestedFixes: c.useCallbackCtx(s, bg),
		})
		return
	}
	c.m.Reportf(c.pass, c.rangeAt(s.Pos), "%s never uses its ctx, which is cancelled when leadership is lost, so the work it starts never hears of it and keeps running after another leader starts; "+
		"%s", s.What, s.System.HearLoss())
}

// backgroundCalls returns the calls to context.Background and context.TODO
// in fn and the closures it contains, except in deferred calls: cleanup on
// the way out (defer srv.Shutdown(context.Background())) is not the work.
func backgroundCalls(fn *ssa.Function) []*ssa.Call {
	var calls []*ssa.Call
	for _, f := range withClosures(fn) {
		if deferredOnly(f) {
			continue
		}
		for _, blk := range f.Blocks {
			for _, instr := range blk.Instrs {
				if call, ok := instr.(*ssa.Call); ok && isBackground(call.Common()) && !usedOnlyByDefer(call) {
					calls = append(calls, call)
				}
			}
		}
	}
	return calls
}

// deferredOnly reports whether f is a closure that only defer statements run.
func deferredOnly(f *ssa.Function) bool {
	if f.Parent() == nil {
		return false
	}
	refs := f.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, ref := range *refs {
		v, ok := ref.(ssa.Value) // a MakeClosure: look at its uses
		if !ok {
			v = nil
		}
		if _, isDefer := ref.(*ssa.Defer); !isDefer && (v == nil || !usedOnlyByDefer(v)) {
			return false
		}
	}
	return true
}

// usedOnlyByDefer reports whether every use of v is a defer statement.
func usedOnlyByDefer(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, ref := range *refs {
		if _, ok := ref.(*ssa.Defer); !ok {
			return false
		}
	}
	return true
}

// withClosures returns fn and, recursively, the function literals in it.
func withClosures(fn *ssa.Function) []*ssa.Function {
	fns := []*ssa.Function{fn}
	for i := 0; i < len(fns); i++ {
		fns = append(fns, fns[i].AnonFuncs...)
	}
	return fns
}

// isBackground reports whether c calls context.Background or context.TODO.
func isBackground(c *ssa.CallCommon) bool {
	f := c.StaticCallee()
	if f == nil || f.Pkg == nil || f.Pkg.Pkg.Path() != "context" {
		return false
	}
	return f.Name() == "Background" || f.Name() == "TODO"
}

func calleeName(call *ssa.Call) string {
	return "context." + call.Common().StaticCallee().Name() + "()"
}

// doesWork reports whether fn calls anything but logging or starts a
// goroutine.
func doesWork(fn *ssa.Function) bool {
	for _, f := range withClosures(fn) {
		for _, blk := range f.Blocks {
			for _, instr := range blk.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok && !isLogging(call.Common()) {
					return true
				}
			}
		}
	}
	return false
}

// isLogging reports whether a call only logs or formats.
func isLogging(c *ssa.CallCommon) bool {
	f := c.StaticCallee()
	if f == nil || f.Pkg == nil {
		return false
	}
	switch f.Pkg.Pkg.Path() {
	case "log", "log/slog", "fmt", "k8s.io/klog/v2":
		return true
	}
	return false
}

// useCallbackCtx offers to replace each context.Background() and
// context.TODO() in the callback with its ctx parameter, when the parameter
// has a name that means it at every one of those calls.
func (c *checker) useCallbackCtx(s *lease.Signal, calls []*ssa.Call) []analysis.SuggestedFix {
	param, ok := s.Value.(*ssa.Parameter)
	if !ok || param.Name() == "_" || param.Name() == "" {
		return nil
	}
	obj, ok := param.Object().(*types.Var)
	if !ok {
		return nil
	}
	var edits []analysis.TextEdit
	for _, call := range calls {
		expr, ok := c.nodes[call.Pos()].(*ast.CallExpr)
		if !ok || !c.resolvesTo(expr, param.Name(), obj) {
			return nil
		}
		edits = append(edits, analysis.TextEdit{Pos: expr.Pos(), End: expr.End(), NewText: []byte(param.Name())})
	}
	return []analysis.SuggestedFix{{
		Message:   "Use the callback's " + param.Name() + " instead of context." + calls[0].Common().StaticCallee().Name() + "()",
		TextEdits: edits,
	}}
}

// resolvesTo reports whether name, written in place of expr, would mean obj.
func (c *checker) resolvesTo(expr ast.Expr, name string, obj *types.Var) bool {
	scope := c.pass.Pkg.Scope().Innermost(expr.Pos())
	if scope == nil {
		return false
	}
	_, found := scope.LookupParent(name, expr.Pos())
	return found == obj
}
