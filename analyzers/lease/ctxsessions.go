package lease

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Services often carry the transaction in the context rather than in a
// parameter: a transactor begins it and hands its callback a context that
// holds it, and every repository asks the database client for a querier
// that is that transaction when the context carries one:
//
//	func (c Client) Querier(ctx context.Context) Querier {
//		if tx, ok := ctx.Value(txKey{}).(*sql.Tx); ok {
//			return tx
//		}
//		return c.DB
//	}
//
//	tx.WithTx(ctx, func(ctx context.Context) error {
//		ok, err := locks.TryJob(ctx, name)   // SELECT pg_try_advisory_xact_lock($1) on c.Querier(ctx)
//		...
//		return runs.Claim(ctx, id)           // UPDATE ... on c.Querier(ctx)
//	})
//
// A call through such a querier's result runs on the session of the context
// it was given, so that context stands for the session (sessionValue): the
// advisory lock taken through one and the write made through another with
// the same context share the transaction, and the write is fenced by it
// as a write on the lock's Tx is, when the lock is transaction-scoped
// (lockSession). A context derived from it (context.WithTimeout, WithValue)
// carries the same transaction, and so does the context a helper hands
// the callback it runs when it hands it its own context parameter unchanged
// on every call (a savepoint helper's fn(ctx); RunParamFact.Contexts):
//
//	r.db.WithSavepoint(ctx, "note", func(ctx context.Context) error {
//		return m.Insert(ctx, r.db.Querier(ctx), boil.Infer())  // on the caller's transaction
//	})

// CtxSessionFact: the function returns the transaction (or connection) its
// context parameter Param (receiver excluded) carries, when it carries one.
type CtxSessionFact struct {
	Param int
}

func (*CtxSessionFact) AFact() {}
func (f *CtxSessionFact) String() string {
	return fmt.Sprintf("returns the session its param %d carries", f.Param)
}

// exportCtxSessions records the package's functions that return the
// session their context parameter carries.
func (b *builder) exportCtxSessions() {
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		if obj == nil || fn.Signature.Results().Len() != 1 || !runsSQL(fn.Signature.Results().At(0).Type()) {
			continue
		}
		if i, ok := carriedSessionParam(fn); ok {
			b.setLocal(obj, &CtxSessionFact{Param: i})
		}
	}
}

// carriedSessionParam returns the context parameter (receiver excluded)
// whose carried session one of fn's returns gives:
// ctx.Value(key).(*sql.Tx).
func carriedSessionParam(fn *ssa.Function) (int, bool) {
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		if ctx := assertedFromContext(ret.Results[0]); ctx != nil {
			if i := paramIndex(fn, ctx); i >= 0 {
				return i, true
			}
		}
	}
	return 0, false
}

// assertedFromContext returns the context v is the session of, when v is
// ctx.Value(key) asserted to a session type (ok-form or not).
func assertedFromContext(v ssa.Value) ssa.Value {
	v = unwrap(v)
	if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
		v = ex.Tuple
	}
	ta, ok := v.(*ssa.TypeAssert)
	if !ok || !isSessionType(ta.AssertedType) {
		return nil
	}
	call, ok := ta.X.(*ssa.Call)
	if !ok || !call.Call.IsInvoke() || call.Call.Method.Name() != "Value" || !isContext(call.Call.Value.Type()) {
		return nil
	}
	return call.Call.Value
}

// sessionValue returns the value that stands for the session v is: the
// context a querier of the application's (CtxSessionFact) picked its
// session from, followed back through the contexts derived from it; v
// itself otherwise.
func (b *builder) sessionValue(v ssa.Value) ssa.Value {
	call, ok := unwrap(v).(*ssa.Call)
	if !ok {
		return b.passedContext(rootContext(v), 0)
	}
	var f CtxSessionFact
	if obj := calleeFunc(call.Common()); obj == nil || call.Common().IsInvoke() || !b.fact(obj, &f) {
		return rootContext(v)
	}
	return b.passedContext(rootContext(arg(call.Common(), f.Param)), 0)
}

// passedContext returns the context a closure's context parameter v
// stands for: the caller's, when the closure is handed to a function that
// calls it with its own context parameter unchanged (RunParamFact's
// Contexts: db.WithSavepoint(ctx, name, func(ctx context.Context) error
// {...}) runs the closure on the transaction ctx carries). Otherwise v.
func (b *builder) passedContext(v ssa.Value, depth int) ssa.Value {
	p, ok := v.(*ssa.Parameter)
	if !ok || depth > 4 || !isContext(p.Type()) {
		return v
	}
	fn := p.Parent()
	if fn.Parent() == nil {
		return v
	}
	param := paramIndex(fn, p)
	var passed ssa.Value
	for _, blk := range fn.Parent().Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			for i, a := range callArgs(call.Common()) {
				if mc, ok := unwrap(a).(*ssa.MakeClosure); !ok || mc.Fn != fn {
					continue
				}
				from := b.contextPassedTo(call.Common(), i, param)
				if from == nil || passed != nil && from != passed {
					return v
				}
				passed = from
			}
		}
	}
	if passed == nil {
		return v
	}
	return b.passedContext(rootContext(passed), depth+1)
}

// contextPassedTo returns the argument of call that its callee hands, as
// argument k, to the func it is given as argument fn, or nil.
func (b *builder) contextPassedTo(call *ssa.CallCommon, fn, k int) ssa.Value {
	callee := calleeFunc(call)
	var f RunParamFact
	if callee == nil || call.IsInvoke() || !b.fact(callee, &f) {
		return nil
	}
	for _, c := range f.Contexts {
		if c.Func == fn && c.Arg == k {
			return arg(call, c.From)
		}
	}
	return nil
}

// lockSession returns the session an advisory lock taken with the SQL
// function fname through v holds: sessionValue's, except that a context
// stands only for a transaction-scoped lock's session. Without a
// transaction in the context the querier gives the pool, which drops such
// a lock at once; a session-level lock (pg_advisory_lock, GET_LOCK) would
// stay on whichever pooled connection ran it while the writes go to
// others.
func (b *builder) lockSession(v ssa.Value, fname string) ssa.Value {
	s := b.sessionValue(v)
	if isContext(s.Type()) && !xactLock(fname) {
		return v
	}
	return s
}

// xactLock reports whether the SQL lock function fname takes a
// transaction-scoped lock.
func xactLock(fname string) bool {
	return fname == "pg_advisory_xact_lock" || fname == "pg_try_advisory_xact_lock"
}

// rootContext follows a context back through the contexts derived from
// it, which carry its values: context.WithTimeout(ctx, d) is ctx.
func rootContext(v ssa.Value) ssa.Value {
	for v != nil && isContext(v.Type()) {
		u := unwrap(v)
		if ex, ok := u.(*ssa.Extract); ok && ex.Index == 0 {
			u = ex.Tuple
		}
		call, ok := u.(*ssa.Call)
		if !ok {
			return v
		}
		f := calleeFunc(call.Common())
		if f == nil || f.Pkg() == nil || f.Pkg().Path() != "context" || len(call.Call.Args) == 0 {
			return v
		}
		switch f.Name() {
		case "WithTimeout", "WithDeadline", "WithCancel", "WithCancelCause", "WithTimeoutCause",
			"WithDeadlineCause", "WithValue", "WithoutCancel":
			v = call.Call.Args[0]
		default:
			return v
		}
	}
	return v
}

// isSessionType reports whether t is one database session type (a
// transaction or a connection), as isSession reads a value's.
func isSessionType(t types.Type) bool {
	name := typeName(t)
	return (name == "Conn" || name == "Tx") && pkgPathOf(t) != ""
}
