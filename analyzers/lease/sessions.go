package lease

import (
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A write through the very connection or transaction that holds a
// PostgreSQL or MySQL advisory lock is fenced by it (markHeld): if the
// session ends, the lock goes with it and so does the write. Layered code
// hands the session down:
//
//	pgx.BeginTxFunc(ctx, db, opts, func(tx pgx.Tx) error {
//		if err := s.acquireLock(ctx, tx, key); err != nil { ... } // SELECT pg_advisory_xact_lock($1) on tx
//		return s.writeOp(ctx, tx, op)                            // database.Upsert(ctx, tx, ...), queries.New(tx).Mark(...)
//	})
//
// so the session a write goes through is followed across calls: an
// acquire wrapper says which parameter's session holds its lock
// (RoleFact.Session), a function whose every unfenced write goes through
// one parameter's session, or its receiver's field's, says so
// (WritesFact.Session, SessionField), and a constructor that keeps its
// parameter in such a field (sqlc's New(db) and WithTx(tx)) says which
// (SessionCtorFact).

// SessionCtorFact: the function returns a new object whose field Field
// holds its parameter Param (receiver excluded), a database handle:
// Queries{db: db}.
type SessionCtorFact struct {
	Field string
	Param int
}

func (*SessionCtorFact) AFact() {}
func (f *SessionCtorFact) String() string {
	return fmt.Sprintf("keeps param %d in field %s", f.Param, f.Field)
}

// sessionOf returns the database session a write goes through as its
// function sees it: the session a callee's fact names at the call, else
// the call's receiver.
func (b *builder) sessionOf(w *Write) ssa.Value {
	if w.session != nil {
		return w.session
	}
	return b.callSQLSession(w.Call)
}

// callSQLSession returns the session a call that sends SQL goes through:
// the argument a SQL helper's or template's fact names, else the
// receiver (or the session a query builder runs with).
func (b *builder) callSQLSession(call ssa.CallInstruction) ssa.Value {
	return b.sessionValue(b.sentThrough(call))
}

// sentThrough returns the value whose method sends a call's SQL, as
// callSQLSession reads it.
func (b *builder) sentThrough(call ssa.CallInstruction) ssa.Value {
	c := call.Common()
	if s := boilerSession(call); s != nil {
		return s
	}
	if tf, ok := b.templateFact(c); ok && tf.Session > 0 {
		return arg(c, tf.Session-1)
	}
	if hf, ok := b.helperFact(c); ok && hf.Session > 0 {
		return arg(c, hf.Session-1)
	}
	if c.IsInvoke() {
		return c.Value
	}
	if api := b.ix.lookupFunc(calleeFunc(c)); api != nil {
		if api.Recv == "Batch" && api.Name == "Queue" {
			if s := batchSession(callRecv(c), 0); s != nil {
				return s
			}
		}
		return sqlSession(c, api)
	}
	return callRecv(c)
}

// batchSession returns the session a pgx batch is sent through: the
// receiver of tx.SendBatch(ctx, batch), directly or in a function of the
// package that sends the batch it is handed (execBatch(ctx, tx, batch));
// nil if it cannot be told. The statements a batch queues run there.
func batchSession(batch ssa.Value, depth int) ssa.Value {
	batch = unwrap(batch)
	refs := batch.Referrers()
	if refs == nil || depth > 2 {
		return nil
	}
	for _, ref := range *refs {
		call, ok := ref.(ssa.CallInstruction)
		if !ok {
			continue
		}
		c := call.Common()
		if fn := calleeFunc(c); fn != nil && fn.Name() == "SendBatch" {
			if unwrap(arg(c, 1)) == batch {
				return callRecv(c)
			}
			continue
		}
		if s := sessionSendingArg(c, batch, depth); s != nil {
			return s
		}
	}
	return nil
}

// sessionSendingArg returns the argument of c that c's callee sends its
// parameter holding batch through.
func sessionSendingArg(c *ssa.CallCommon, batch ssa.Value, depth int) ssa.Value {
	callee := c.StaticCallee()
	if callee == nil || len(callee.Params) != len(c.Args) {
		return nil
	}
	for i, a := range c.Args {
		if unwrap(a) != batch {
			continue
		}
		p, ok := unwrap(batchSession(callee.Params[i], depth+1)).(*ssa.Parameter)
		if !ok {
			continue
		}
		if j := slices.Index(callee.Params, p); j >= 0 {
			return c.Args[j]
		}
	}
	return nil
}

// callSession returns the session a call of a function whose writes go
// through a session (wf) hands it: the argument, or the field of the
// receiver a constructor filled; nil if it cannot be told.
func (b *builder) callSession(c *ssa.CallCommon, wf *WritesFact) ssa.Value {
	switch {
	case wf.Session > 0:
		return b.sessionValue(arg(c, wf.Session-1))
	case wf.SessionField != "":
		ctor, ok := unwrap(callRecv(c)).(*ssa.Call)
		if !ok {
			return nil
		}
		var f SessionCtorFact
		if obj := calleeFunc(ctor.Common()); obj != nil && b.fact(obj, &f) && f.Field == wf.SessionField {
			return arg(ctor.Common(), f.Param)
		}
	}
	return nil
}

// refreshSessions reads the session of each call recorded as a write again
// from its callee's current fact, and judges the write again when it
// changed: a helper whose writes all went through its parameter's session
// loses that when a later round learns of a write it makes elsewhere.
func (b *builder) refreshSessions() {
	for _, w := range b.model.Writes {
		var wf WritesFact
		if w.sitesOf == nil || !b.callFact(w.Call.Common(), w.sitesOf, &wf) {
			continue
		}
		var s ssa.Value
		if wf.Session > 0 || wf.SessionField != "" {
			s = b.callSession(w.Call.Common(), &wf)
		}
		if s != w.session {
			w.session = s
			b.markWrite(w)
		}
	}
}

// sessionParamOf returns the parameter (1-based, receiver excluded), or
// the receiver's field, whose session every write of writes goes through;
// 0 and "" when they do not all go through one.
func (b *builder) sessionParamOf(fn *ssa.Function, writes []*Write) (int, string) {
	param, field := 0, ""
	for i, w := range writes {
		p, f := sessionSource(fn, b.sessionOf(w))
		if p == 0 && f == "" || i > 0 && (p != param || f != field) {
			return 0, ""
		}
		param, field = p, f
	}
	return param, field
}

// sessionSource tells where fn got the session s from: its parameter
// (1-based, receiver excluded) or its receiver's field.
func sessionSource(fn *ssa.Function, s ssa.Value) (int, string) {
	if s == nil {
		return 0, ""
	}
	s = unwrap(s)
	if p, ok := s.(*ssa.Parameter); ok && p.Parent() == fn {
		if i := paramIndex(fn, p); i >= 0 {
			return i + 1, ""
		}
		return 0, ""
	}
	if fv := loadedField(s); fv != nil && fn.Signature.Recv() != nil && len(fn.Params) > 0 && loadedFrom(s) == ssa.Value(fn.Params[0]) {
		return 0, fv.Name()
	}
	return 0, ""
}

// loadedFrom returns the struct (or pointer) a field load reads from.
func loadedFrom(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok {
			return fa.X
		}
	case *ssa.Field:
		return x.X
	}
	return nil
}

// exportSessionCtors records the package's functions that return a new
// object keeping a parameter in a field that can run SQL (has an Exec or
// ExecContext method): sqlc's New and WithTx.
func (b *builder) exportSessionCtors() {
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		if obj == nil || fn.Signature.Results().Len() != 1 {
			continue
		}
		if f := keptSession(fn); f != nil {
			b.setLocal(obj, f)
		}
	}
}

// keptSession returns what fn's every return says: a new object with a
// SQL handle parameter in a field; nil otherwise.
func keptSession(fn *ssa.Function) *SessionCtorFact {
	var found *SessionCtorFact
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		alloc, ok := unwrap(ret.Results[0]).(*ssa.Alloc)
		if !ok {
			return nil
		}
		f := storedParamField(fn, alloc)
		if f == nil || found != nil && *found != *f {
			return nil
		}
		found = f
	}
	return found
}

// storedParamField returns the field of alloc that a parameter of fn is
// stored in, when that field can run SQL.
func storedParamField(fn *ssa.Function, alloc *ssa.Alloc) *SessionCtorFact {
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.X != alloc {
			continue
		}
		fv := fieldVar(fa.X.Type(), fa.Field)
		if fv == nil || !runsSQL(fv.Type()) {
			continue
		}
		for _, r := range *fa.Referrers() {
			st, ok := r.(*ssa.Store)
			if !ok || st.Addr != fa {
				continue
			}
			if p, ok := unwrap(st.Val).(*ssa.Parameter); ok {
				if i := paramIndex(fn, p); i >= 0 {
					return &SessionCtorFact{Field: fv.Name(), Param: i}
				}
			}
		}
	}
	return nil
}

// runsSQL reports whether a value of type t has an Exec or ExecContext
// method: a database handle, or the interface sqlc declares for one.
func runsSQL(t types.Type) bool {
	ms := types.NewMethodSet(t)
	if _, isPtr := t.Underlying().(*types.Pointer); !isPtr && !types.IsInterface(t) {
		ms = types.NewMethodSet(types.NewPointer(t))
	}
	for _, name := range []string{"Exec", "ExecContext"} {
		if sel := ms.Lookup(nil, name); sel != nil {
			return true
		}
	}
	return false
}

// wrappedSession returns the parameter (1-based, receiver excluded) whose
// session holds the advisory lock the acquire wrapper fn takes: the one
// its SQL goes through, or the one it hands an acquire wrapper of its own
// that says so; 0 if none.
func (b *builder) wrappedSession(fn *ssa.Function) int {
	for call, c := range b.resolvedCalls(fn) {
		var s ssa.Value
		switch {
		case sendsSQL(c.api) && b.sqlOps(call.Common(), c.api).acquires:
			s = b.lockSession(sqlSession(call.Common(), c.api), b.sqlLocksOf(call.Common(), c.api).acquire)
		case c.role&(RoleAcquire|RoleTryAcquire) != 0 && c.session > 0:
			s = b.sessionValue(arg(call.Common(), c.session-1))
		default:
			continue
		}
		if p, _ := sessionSource(fn, s); p > 0 {
			return p
		}
	}
	return 0
}

// unfencedOf returns the writes of writes that a caller's lease would
// guard: unfenced, and made under no lease of their function's own.
func unfencedOf(writes []*Write) []*Write {
	var out []*Write
	for _, w := range writes {
		if !w.Fenced && !w.heldOwn && !w.LockImpl {
			out = append(out, w)
		}
	}
	return out
}
