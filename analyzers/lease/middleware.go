package lease

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// An HTTP middleware that checks leadership and then continues the chain
// runs the handlers registered after it under that check:
//
//	func RedirectIfNotLeader(c *gin.Context) {
//		if !storage.IsLeader() { c.Redirect(...); c.Abort(); return }
//		c.Next() // the route's handler writes
//	}
//	engine.Use(RedirectIfNotLeader)
//	engine.Group("/api").POST("/clusters", cluster.Create)
//
// c.Next() is a call of those handlers: nextWrite makes it a write when one
// of them writes, so a check that guards it guards their writes (and a lease
// held around it covers them). The handlers are read from the package's
// route registrations: the ones registered, after the middleware, on the
// router it was added to or on a group made from that router. A middleware
// registered in another package than its Next call is not followed.

// ginPkg is gin's import path; its router methods are listed in ginRoutes.
const ginPkg = "github.com/gin-gonic/gin"

// ginRoutes maps a router method to the index of its first handler
// argument (receiver excluded): Use(handlers...), GET(path, handlers...),
// Handle(method, path, handlers...), Group(path, handlers...).
var ginRoutes = map[string]int{
	"Use": 0, "Group": 1, "Handle": 2, "Match": 2, "Any": 1,
	"GET": 1, "POST": 1, "PUT": 1, "DELETE": 1, "PATCH": 1, "OPTIONS": 1, "HEAD": 1,
}

// isGinRouter reports whether fn is a route-registering method of a gin
// router (Engine, RouterGroup, or the IRouter/IRoutes interfaces).
func isGinRouter(fn *types.Func) (first int, ok bool) {
	if fn == nil || fn.Pkg() == nil || CanonicalPath(fn.Pkg().Path()) != ginPkg {
		return 0, false
	}
	switch receiverName(fn) {
	case "Engine", "RouterGroup", "IRouter", "IRoutes":
		first, ok = ginRoutes[fn.Name()]
		return first, ok
	}
	return 0, false
}

// isGinNext reports whether call is gin's (*Context).Next.
func isGinNext(call *ssa.CallCommon) bool {
	fn := calleeFunc(call)
	return fn != nil && fn.Pkg() != nil && CanonicalPath(fn.Pkg().Path()) == ginPkg &&
		receiverName(fn) == "Context" && fn.Name() == "Next"
}

// A registration is one call of a gin router method with handlers.
type registration struct {
	call     ssa.CallInstruction
	method   string
	router   []routerKey // the router the call is made on, then the routers it was made from
	handlers []*ssa.Function
}

// A routerKey names a router value: a value, or a field a router is kept in
// (srv.engine loaded twice is one router).
type routerKey struct {
	v     ssa.Value
	field *types.Var
}

// ginRegistrations returns the package's gin route registrations, in
// source order per function.
func (b *builder) ginRegistrations() []registration {
	if b.routes != nil {
		return *b.routes
	}
	var regs []registration
	b.calls(func(fn *ssa.Function, call ssa.CallInstruction) bool {
		c := call.Common()
		first, ok := isGinRouter(calleeFunc(c))
		if !ok {
			return true
		}
		args := callArgs(c)
		if first >= len(args) {
			return true
		}
		elems, ok := variadic(args[first])
		if !ok {
			return true
		}
		reg := registration{call: call, method: calleeFunc(c).Name(), router: routerChain(callRecv(c))}
		for _, e := range elems {
			reg.handlers = append(reg.handlers, funcValue(e)) // nil for a handler out of sight
		}
		regs = append(regs, reg)
		return true
	})
	b.routes = &regs
	return regs
}

// routerChain returns the keys of the router v and of the routers it was
// made from by Group, nearest first.
func routerChain(v ssa.Value) []routerKey {
	var chain []routerKey
	for depth := 0; v != nil && depth < 16; depth++ {
		v = unwrap(v)
		if fa, ok := v.(*ssa.FieldAddr); ok && embeddedRouter(fa) {
			v = fa.X // &engine.RouterGroup: the engine
			continue
		}
		chain = append(chain, keyOf(v))
		call, ok := v.(*ssa.Call)
		if !ok {
			break
		}
		if fn := calleeFunc(call.Common()); fn == nil || fn.Name() != "Group" {
			break
		}
		if _, ok := isGinRouter(calleeFunc(call.Common())); !ok {
			break
		}
		v = callRecv(call.Common())
	}
	return chain
}

// embeddedRouter reports whether fa selects the RouterGroup a gin Engine
// embeds.
func embeddedRouter(fa *ssa.FieldAddr) bool {
	f := fieldVar(fa.X.Type(), fa.Field)
	return f != nil && f.Embedded() && f.Name() == "RouterGroup"
}

// keyOf returns the key of a router value: the field it was loaded from,
// with the key of what holds that field, or the value itself.
func keyOf(v ssa.Value) routerKey {
	if load, ok := v.(*ssa.UnOp); ok {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			if f := fieldVar(fa.X.Type(), fa.Field); f != nil {
				return routerKey{v: keyOf(unwrap(fa.X)).v, field: f}
			}
		}
	}
	return routerKey{v: v}
}

// chainedAfter returns the handlers gin runs after the middleware mw: those
// that follow it in the call that registers it, and those registered later
// on the router it was added to or on groups made from it.
func (b *builder) chainedAfter(mw *ssa.Function) []*ssa.Function {
	regs := b.ginRegistrations()
	var out []*ssa.Function
	for _, use := range regs {
		at := -1
		for i, h := range use.handlers {
			if runsFunc(h, mw) {
				at = i
			}
		}
		if at < 0 {
			continue
		}
		out = append(out, use.handlers[at+1:]...)
		if use.method != "Use" && use.method != "Group" {
			continue
		}
		scope := use.router[0] // Use adds to its router; Group(path, mw) to the group it makes
		if use.method == "Group" {
			scope = routerKey{v: use.call.Value()}
		}
		for _, reg := range regs {
			if reg.call != use.call && registeredAfter(use.call, reg.call) && madeFrom(reg.router, scope) {
				out = append(out, reg.handlers...)
			}
		}
	}
	return out
}

// runsFunc reports whether the handler h runs fn: fn itself, or the
// method a method value (s.redirect, a bound wrapper) calls.
func runsFunc(h, fn *ssa.Function) bool {
	if h == nil || fn == nil {
		return false
	}
	if h == fn {
		return true
	}
	obj := h.Object()
	return obj != nil && obj == fn.Object()
}

// madeFrom reports whether a router chain includes the router key.
func madeFrom(chain []routerKey, key routerKey) bool {
	for _, k := range chain {
		if k == key {
			return true
		}
	}
	return false
}

// registeredAfter reports whether the registration b runs after a: later in
// the same block, or in a block a dominates.
func registeredAfter(a, b ssa.CallInstruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab == nil || bb == nil || ab.Parent() != bb.Parent() {
		return false
	}
	if ab != bb {
		return ab.Dominates(bb)
	}
	for _, instr := range ab.Instrs {
		switch instr {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}

// nextWrite returns the write that gin's c.Next() makes in fn when a
// handler chained after fn writes, or nil.
func (b *builder) nextWrite(fn *ssa.Function, call ssa.CallInstruction) *Write {
	if !isGinNext(call.Common()) {
		return nil
	}
	for _, h := range b.chainedAfter(fn) {
		if h == nil {
			continue
		}
		obj, _ := h.Object().(*types.Func)
		if obj == nil { // a func literal: its own writes
			if inner := b.unfencedWriteIn(h); inner != nil {
				w := newWrite(fn, call, inner.System, "Context.Next(func literal)")
				w.Via = b.describeWrite(inner)
				return w
			}
			continue
		}
		var wf WritesFact
		if b.fact(obj, &wf) {
			w := newWrite(fn, call, wf.System, "Context.Next("+shortName(obj)+")")
			w.Via, w.Dispatch = wf.What, wf.Dispatch
			return w
		}
	}
	return nil
}

// unfencedWriteIn returns an unfenced write fn makes outside any lease of
// its own, or nil.
func (b *builder) unfencedWriteIn(fn *ssa.Function) *Write {
	for _, w := range b.model.Writes {
		if w.Fn == fn && !w.Fenced && !w.LockImpl && w.Unseen == "" && len(w.Held) == 0 {
			return w
		}
	}
	return nil
}
