package lease

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// An HTTP middleware that checks leadership and then continues the chain
// runs the handlers it wraps under that check. The continuation is gin's
// c.Next(), or, for the decorator middlewares of net/http, chi, gorilla/mux
// and echo, a call of the handler the middleware was given:
//
//	func RedirectIfNotLeader(c *gin.Context) {
//		if !storage.IsLeader() { c.Redirect(...); c.Abort(); return }
//		c.Next() // the route's handler writes
//	}
//	engine.Use(RedirectIfNotLeader)
//
//	func (s *Server) leaderOnly(next http.Handler) http.Handler {
//		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
//			if !s.le.IsLeader() { http.Error(w, "not leader", 503); return }
//			next.ServeHTTP(w, r) // the route's handler writes
//		})
//	}
//	r.Use(s.leaderOnly) // or r.With(s.leaderOnly).Post(...), or s.leaderOnly(h)
//
// The continuation is a call of the wrapped handlers: nextWrite makes it a
// write when one of them writes, so a check that guards it guards their
// writes (and a lease held around it covers them). The wrapped handlers
// are read from the package: for a decorator, the handlers it is applied
// to (leaderOnly(h), leaderOnly(mux)); for any middleware, those that
// follow it in the call that registers it, and those registered after it
// on the router it was added to or on a router made from that one
// (Group, With, Route, Subrouter). A middleware registered in another
// package than its continuation is not followed.

// A webFramework names a router package: its router types (whose methods
// register handlers and middlewares) and the one whose Use wraps every
// route of the router, whenever registered: gorilla/mux and echo apply a
// router's middlewares when a request is served, and chi's Mux refuses a
// Use after a route; gin, chi's inline routers and echo's groups wrap
// only the routes registered after it.
type webFramework struct {
	path        string
	routers     []string
	useWrapsAll string
}

// webFrameworks lists the routers whose registrations are read. net/http's
// ServeMux has no middlewares; it is listed for the handlers registered on
// a mux that a middleware wraps whole.
func webFrameworks() []webFramework {
	return []webFramework{
		{path: "github.com/gin-gonic/gin", routers: []string{"Engine", "RouterGroup", "IRouter", "IRoutes"}},
		{path: "github.com/labstack/echo", routers: []string{"Echo", "Group"}, useWrapsAll: "Echo"},
		{path: "github.com/go-chi/chi", routers: []string{"Mux", "Router"}, useWrapsAll: "Mux"},
		{path: "github.com/gorilla/mux", routers: []string{"Router", "Route"}, useWrapsAll: "Router"},
		{path: "net/http", routers: []string{"ServeMux"}},
	}
}

// routerType returns the framework whose router type t (or *t) is, and
// the type's name.
func routerType(t types.Type) (webFramework, string, bool) {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return webFramework{}, "", false
	}
	path, name := CanonicalPath(n.Obj().Pkg().Path()), n.Obj().Name()
	for _, fw := range webFrameworks() {
		if fw.path == path && slices.Contains(fw.routers, name) {
			return fw, name, true
		}
	}
	return webFramework{}, "", false
}

// routerMethod reports whether fn is a method of a router type.
func routerMethod(fn *types.Func) (webFramework, string, bool) {
	if fn == nil || fn.Signature().Recv() == nil {
		return webFramework{}, "", false
	}
	sig := fn.Signature()
	return routerType(sig.Recv().Type())
}

// isGinNext reports whether call is gin's (*Context).Next.
func isGinNext(call *ssa.CallCommon) bool {
	fn := calleeFunc(call)
	return fn != nil && fn.Pkg() != nil && CanonicalPath(fn.Pkg().Path()) == "github.com/gin-gonic/gin" &&
		receiverName(fn) == "Context" && fn.Name() == "Next"
}

// decoratorParam reports whether fn's parameter p has the type of fn's
// only result: fn wraps what p is given (func(next http.Handler)
// http.Handler, echo.MiddlewareFunc, func(store, next) http.HandlerFunc).
func decoratorParam(fn *ssa.Function, p *ssa.Parameter) bool {
	res := fn.Signature.Results()
	return res.Len() == 1 && types.Identical(p.Type(), res.At(0).Type()) && isHandlerType(p.Type())
}

// isDecoratorType reports whether t is a middleware type: a func from a
// handler type to the same type.
func isDecoratorType(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Params().Len() == 1 && sig.Results().Len() == 1 &&
		types.Identical(sig.Params().At(0).Type(), sig.Results().At(0).Type()) && isHandlerType(sig.Results().At(0).Type())
}

// isHandlerType reports whether t is a request handler: net/http's
// Handler, or a func that takes a request (*http.Request, echo.Context,
// *gin.Context).
func isHandlerType(t types.Type) bool {
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil &&
		n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Handler" {
		return true
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok {
		return false
	}
	for i := range sig.Params().Len() {
		if isRequestType(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}

// isRequestType reports whether t is the request a handler serves.
func isRequestType(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch CanonicalPath(n.Obj().Pkg().Path()) + "." + n.Obj().Name() {
	case "net/http.Request", "github.com/labstack/echo.Context", "github.com/gin-gonic/gin.Context":
		return true
	}
	return false
}

// A registration is one call of a router method with handlers or
// middlewares.
type registration struct {
	call   ssa.CallInstruction
	router []routerKey // the router the call is made on, then the routers it was made from
	// scope is the router whose later routes the chain wraps: the receiver
	// for Use, the router made for Group and With; nil for a route.
	scope *routerKey
	// wrapsAll is set for a Use that wraps every route of its router,
	// whenever registered.
	wrapsAll bool
	// chain holds the middlewares and handlers in the order they run; a
	// gin middleware is a handler that calls c.Next().
	chain []ssa.Value
}

// A routerKey names a router value: a value, or a field a router is kept in
// (srv.engine loaded twice is one router).
type routerKey struct {
	v     ssa.Value
	field *types.Var
}

// registrations returns the package's route registrations, in source
// order per function.
func (b *builder) registrations() []registration {
	if b.routes != nil {
		return *b.routes
	}
	var regs []registration
	b.calls(func(_ *ssa.Function, call ssa.CallInstruction) bool {
		if reg, ok := newRegistration(call); ok {
			regs = append(regs, reg)
		}
		return true
	})
	b.routes = &regs
	return regs
}

// newRegistration reads a router method call: its middlewares (arguments
// of a middleware type, which run first) and handlers, in order.
func newRegistration(call ssa.CallInstruction) (registration, bool) {
	c := call.Common()
	method := calleeFunc(c)
	fw, recvType, ok := routerMethod(method)
	if !ok {
		return registration{}, false
	}
	var mws, handlers []ssa.Value
	for _, a := range callArgs(c) {
		elems := []ssa.Value{a}
		if _, isSlice := a.Type().Underlying().(*types.Slice); isSlice {
			if elems, ok = variadic(a); !ok {
				continue
			}
		}
		for _, e := range elems {
			switch t := e.Type(); {
			case isDecoratorType(t):
				mws = append(mws, e)
			case isHandlerType(t):
				handlers = append(handlers, e)
			}
		}
	}
	if len(mws)+len(handlers) == 0 {
		return registration{}, false
	}
	reg := registration{call: call, router: routerChain(callRecv(c)), chain: append(mws, handlers...)}
	if len(reg.router) == 0 {
		return registration{}, false
	}
	switch method.Name() {
	case "Use", "Pre":
		reg.scope = &reg.router[0]
		reg.wrapsAll = recvType == fw.useWrapsAll
	case "Group", "With": // a router made with these middlewares
		if v := call.Value(); v != nil {
			reg.scope = &routerKey{v: v}
		}
	}
	return reg, true
}

// isRouter reports whether t is a router type of a listed framework.
func isRouter(t types.Type) bool {
	_, _, ok := routerType(t)
	return ok
}

// routerChain returns the keys of the router v and of the routers it was
// made from by a router method (Group, With, Route, Subrouter; gin's
// routes return their group), nearest first.
func routerChain(v ssa.Value) []routerKey {
	var chain []routerKey
	for depth := 0; v != nil && depth < 16; depth++ {
		v = unwrap(v)
		if fa, ok := v.(*ssa.FieldAddr); ok && embeddedRouter(fa) {
			v = fa.X // &engine.RouterGroup: the engine
			continue
		}
		chain = append(chain, keyOf(v))
		var call ssa.CallInstruction
		switch x := v.(type) {
		case *ssa.Call: // r.Group("/api"), r.With(mw), r.PathPrefix(p).Subrouter()
			call = x
		case *ssa.Parameter: // chi's r.Route("/api", func(r chi.Router) { ... })
			call = routerFuncCall(x.Parent())
		}
		if call == nil {
			break
		}
		if _, _, ok := routerMethod(calleeFunc(call.Common())); !ok {
			break
		}
		v = callRecv(call.Common())
	}
	return chain
}

// routerFuncCall returns the router method call that the func literal fn
// is handed to, which calls it with a router made from its receiver
// (chi's Group and Route), or nil.
func routerFuncCall(fn *ssa.Function) ssa.CallInstruction {
	if fn.Parent() == nil {
		return nil
	}
	for _, ref := range *fn.Referrers() {
		v := ssa.Value(fn)
		if mc, ok := ref.(*ssa.MakeClosure); ok {
			v = mc
			if len(*mc.Referrers()) != 1 {
				continue
			}
			ref = (*mc.Referrers())[0]
		}
		call, ok := ref.(ssa.CallInstruction)
		if !ok || !slices.Contains(callArgs(call.Common()), v) {
			continue
		}
		if _, _, ok := routerMethod(calleeFunc(call.Common())); ok {
			return call
		}
	}
	return nil
}

// liftedTo returns the call in fn that runs the registration reg: reg
// itself, or the router method call that runs the func literal reg is
// in (maybe nested); nil if none.
func liftedTo(reg ssa.CallInstruction, fn *ssa.Function) ssa.CallInstruction {
	for depth := 0; reg != nil && reg.Parent() != fn && depth < 8; depth++ {
		reg = routerFuncCall(reg.Parent())
	}
	if reg == nil || reg.Parent() != fn {
		return nil
	}
	return reg
}

// embeddedRouter reports whether fa selects a router its struct embeds
// (the RouterGroup of a gin Engine).
func embeddedRouter(fa *ssa.FieldAddr) bool {
	f := fieldVar(fa.X.Type(), fa.Field)
	return f != nil && f.Embedded() && isRouter(f.Type())
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

// chainedAfter returns the handlers the router runs after the middleware
// mw: those that follow it in the call that registers it, and those the
// routers it is added to run after it (covers).
func (b *builder) chainedAfter(mw *ssa.Function) []ssa.Value {
	regs := b.registrations()
	var out []ssa.Value
	for _, use := range regs {
		at := -1
		for i, h := range use.chain {
			if runsFunc(middlewareFunc(h), mw) {
				at = i
			}
		}
		if at < 0 {
			continue
		}
		out = append(out, use.chain[at+1:]...)
		if use.scope == nil {
			continue
		}
		for _, reg := range regs {
			if covers(use, reg) {
				out = append(out, reg.chain...)
			}
		}
	}
	return out
}

// covers reports whether the middlewares that use adds to a router wrap
// the handlers reg registers: reg is made on that router or on one made
// from it, after use or, for a Use that wraps all, anywhere in its
// function, or, for a router kept in a field, anywhere in the package.
func covers(use, reg registration) bool {
	if reg.call == use.call {
		return false
	}
	if use.wrapsAll && use.scope.field != nil &&
		slices.ContainsFunc(reg.router, func(k routerKey) bool { return k.field == use.scope.field }) {
		return true // s.router.Use(mw) in one method, s.router.HandleFunc(...) in another
	}
	if !madeFrom(reg.router, *use.scope) {
		return false
	}
	lifted := liftedTo(reg.call, use.call.Parent())
	return lifted != nil && (use.wrapsAll || registeredAfter(use.call, lifted))
}

// middlewareFunc returns the function a registered middleware or handler
// value runs: a function, a method value, or the func a factory call
// returns (LeaderOnly(store)).
func middlewareFunc(v ssa.Value) *ssa.Function {
	if fn := funcValue(v); fn != nil {
		return fn
	}
	call, ok := unwrap(v).(*ssa.Call)
	if !ok {
		return nil
	}
	return alwaysReturned(call.Common().StaticCallee(), funcValue)
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

// wrappedBy returns the handlers the decorator mw wraps as its parameter
// p: the arguments of its calls in the package, and the handlers chained
// after it where it is registered.
func (b *builder) wrappedBy(mw *ssa.Function, p int) []ssa.Value {
	var out []ssa.Value
	b.calls(func(_ *ssa.Function, call ssa.CallInstruction) bool {
		c := call.Common()
		if runsFunc(c.StaticCallee(), mw) {
			if a := arg(c, p); a != nil {
				out = append(out, a)
			}
		}
		return true
	})
	return append(out, b.chainedAfter(mw)...)
}

// handlerFuncs returns the functions a wrapped handler value runs: a
// function or method value, a type's ServeHTTP method, what another
// decorator wraps (leaderOnly(logged(h))), the handler a factory makes,
// or the handlers registered on a router wrapped whole (leaderOnly(mux)).
func (b *builder) handlerFuncs(v ssa.Value, depth int) []*ssa.Function {
	if depth > 4 || v == nil {
		return nil
	}
	if fn := funcValue(v); fn != nil {
		return []*ssa.Function{fn}
	}
	v = unwrap(v)
	if isRouter(v.Type()) {
		key := keyOf(v)
		var out []*ssa.Function
		for _, reg := range b.registrations() {
			if madeFrom(reg.router, key) {
				for _, h := range reg.chain {
					out = append(out, b.handlerFuncs(h, depth+1)...)
				}
			}
		}
		return out
	}
	if call, ok := v.(*ssa.Call); ok {
		if i := wrappedArg(call.Common()); i >= 0 { // logged(h), http.StripPrefix("/api", h)
			return b.handlerFuncs(call.Common().Args[i], depth+1)
		}
		if fn := alwaysReturned(call.Common().StaticCallee(), funcValue); fn != nil {
			return []*ssa.Function{fn} // h.CreateHandler(): the handler a factory makes
		}
		return nil
	}
	if sel := types.NewMethodSet(v.Type()).Lookup(nil, "ServeHTTP"); sel != nil {
		for _, fn := range b.funcs { // a handler type of the package's own
			if fn.Object() == sel.Obj() {
				return []*ssa.Function{fn}
			}
		}
	}
	return nil
}

// wrappedArg returns the index in call.Args of the handler a static call
// of a decorator wraps: the argument of the handler type it returns; -1
// if none.
func wrappedArg(call *ssa.CallCommon) int {
	if call.StaticCallee() == nil {
		return -1
	}
	sig := call.Signature()
	if sig.Results().Len() != 1 || !isHandlerType(sig.Results().At(0).Type()) {
		return -1
	}
	skip := len(call.Args) - sig.Params().Len() // a method's receiver
	for i := range sig.Params().Len() {
		if types.Identical(sig.Params().At(i).Type(), sig.Results().At(0).Type()) {
			return skip + i
		}
	}
	return -1
}

// continued returns the handlers a middleware's continuation call runs,
// and how to name the call: gin's c.Next(), or a call of the parameter a
// decorator wraps, from the handler it returns.
func (b *builder) continued(fn *ssa.Function, call ssa.CallInstruction) ([]ssa.Value, string) {
	c := call.Common()
	if isGinNext(c) {
		return b.chainedAfter(fn), "Context.Next"
	}
	v, name := c.Value, ""
	switch {
	case c.IsInvoke():
		name = "." + c.Method.Name()
	case c.StaticCallee() != nil && c.StaticCallee().Signature.Recv() != nil && len(c.Args) > 0:
		v, name = c.Args[0], "."+c.StaticCallee().Name() // http.HandlerFunc's ServeHTTP
	}
	p := boundParam(v)
	if p == nil || p.Parent() == fn || !decoratorParam(p.Parent(), p) {
		return nil, ""
	}
	mw := p.Parent()
	return b.wrappedBy(mw, paramIndex(mw, p)), p.Name() + name
}

// boundParam returns the parameter that v holds: a parameter, or one of
// an enclosing function that v reads through the free variables of
// closures (maybe nested); nil if none. A captured parameter is spilled: the closure
// loads it through a pointer to the cell its function stored it in.
func boundParam(v ssa.Value) *ssa.Parameter {
	for depth := 0; depth < 8 && v != nil; depth++ {
		switch x := unwrap(v).(type) {
		case *ssa.Parameter:
			return x
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil
			}
			v = x.X
		case *ssa.FreeVar:
			v = freeVarBinding(x)
		case *ssa.Alloc:
			v = storedOnce(x)
		default:
			return nil
		}
	}
	return nil
}

// nextWrite returns the write that a middleware's continuation makes in
// fn when a handler it runs writes, or nil.
func (b *builder) nextWrite(fn *ssa.Function, call ssa.CallInstruction) *Write {
	wrapped, name := b.continued(fn, call)
	for _, v := range wrapped {
		for _, h := range b.handlerFuncs(v, 0) {
			if w := b.handlerWrite(fn, call, name, h); w != nil {
				w.continues = true
				return w
			}
		}
	}
	return nil
}

// handlerWrite returns the write the continuation call makes when the
// handler h writes, or nil.
func (b *builder) handlerWrite(fn *ssa.Function, call ssa.CallInstruction, name string, h *ssa.Function) *Write {
	if h == nil {
		return nil
	}
	obj, _ := h.Object().(*types.Func)
	if obj == nil { // a func literal: its own writes
		if inner := b.unfencedWriteIn(h); inner != nil {
			w := newWrite(fn, call, inner.System, name+"(func literal)")
			w.Via = b.describeWrite(inner)
			return w
		}
		return nil
	}
	var wf WritesFact
	if b.fact(obj, &wf) {
		w := newWrite(fn, call, wf.System, name+"("+shortName(obj)+")")
		w.Via, w.Dispatch = wf.What, wf.Dispatch
		return w
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
