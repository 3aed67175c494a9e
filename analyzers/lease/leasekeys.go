package lease

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// An INSERT whose unique key is built from the lease's own key is a
// create-if-absent even when the key is text. blnk commits an inflight
// transaction under a hand-rolled SET NX lock and queues follow-up work
// under a key made of the same ID:
//
//	lockKey := fmt.Sprintf("inflight-commit:%s", transactionID)
//	locker := redlock.NewLocker(l.redis, lockKey, value)
//	if err := locker.Lock(ctx, ttl); err != nil { return err }
//	...
//	l.queueShadowWork(ctx, transactionID, model.LineageTypeShadowCommit)
//
//	func (l *Blnk) queueShadowWork(ctx context.Context, id, kind string) error {
//		outbox := &model.LineageOutbox{TransactionID: fmt.Sprintf("%s_%s", id, kind), ...}
//		if err := l.datasource.InsertLineageOutbox(ctx, outbox); err != nil { ... }
//
//	INSERT INTO lineage_outbox (transaction_id, ...) VALUES ($1, ...)   -- UNIQUE (transaction_id), text
//
// schema.go does not trust a key a column of which can hold a freshly
// drawn identifier (text, uuid, a 64-bit integer): a writer may give every
// row a new value, so a stale holder's INSERT adds a second row. Here it
// cannot: whoever holds the lease on "inflight-commit:<id>" builds the key
// from that same <id>, so the next holder's INSERT and a stale holder's are
// of one key, and whichever comes second fails. Precisely, such a key
// (SchemaKey.Fresh) makes a plain INSERT (no ON CONFLICT: DO UPDATE is an
// overwrite, and stays reported) a create-if-absent when, besides what
// schema.go asks of a natural key (every column supplied, NOT NULL, not
// filled by the database; the error returned or compared with nil, also
// the error of Scan on the row of an INSERT ... RETURNING), every value
// given to its columns is built only from constants and the leaves of
// the key of one lease held at the write (keyLeaves: fmt.Sprintf with a
// constant format, +, strings.Join with a constant separator; a leaf is
// any other value, compared as sameValue does), and none is drawn fresh
// there (a uuid, the current time). A value built from anything else (a
// reference the caller passes, a field of a record read under the lock)
// may differ between holders and is not trusted.
//
// The key of a lease is the key its acquiring call locks: a SET NX's, a
// bsm/redislock Obtain's, a redsync mutex's name, or, for a wrapper
// (RoleFact.Key), the parameter or the receiver's field the wrapper locks,
// and for a receiver a constructor built, the constructor's parameter that
// becomes that field (LockKeyCtorFact). A value built from the writing
// function's parameters is judged at each call, as sqlconverge.go judges
// a definition: the function gets a ConvergeFact marked LeaseKey naming
// those parameters (or their fields), through interfaces too, and a call
// passes them the caller's values (a struct literal's field: the value
// stored into it).

// LockKeyCtorFact: the function returns a lock object whose key (the
// receiver field its acquire locks, RoleFact.Key) is parameter Param.
type LockKeyCtorFact struct {
	Param int
}

func (*LockKeyCtorFact) AFact() {}
func (f *LockKeyCtorFact) String() string {
	return fmt.Sprintf("makes a lock on param %d", f.Param)
}

// freshKeyInsert judges st, the one write of the SQL call sends, as an
// INSERT under a unique key that can hold a fresh identifier: it returns
// the leaves of the values given to the first such key none of whose
// values is drawn fresh here, and names the key, when it is one a lease
// key can make a create-if-absent (above); false otherwise.
func (b *builder) freshKeyInsert(st *sqlscan.Statement, text sqlText, args []ssa.Value, argsKnown bool, call ssa.CallInstruction) ([]keyLeaf, string, bool) {
	if st.Verb != "INSERT" || st.Conflict != "" || len(st.With) > 0 || st.Unknown || len(st.Inserts) == 0 || strings.Contains(st.Table, "?") {
		return nil, "", false
	}
	t := b.schemaTable(st.Table)
	if t == nil || t.Unknown || b.templateErrorLost(call) || !errorHeeded(call) && !scanErrorHeeded(call) {
		return nil, "", false
	}
	src := statementKeys{st, text, args, argsKnown}
	for _, k := range t.Keys {
		if leaves, ok := b.freshKeyLeaves(k, st, src); ok {
			return leaves, fmt.Sprintf("(%s) of %s", strings.Join(k.Columns, ", "), t.Name), true
		}
	}
	return nil, "", false
}

// freshKeyLeaves returns the leaves of the values src gives the columns of
// k, a key that can hold a fresh identifier, when each is seen and none
// is drawn fresh.
func (b *builder) freshKeyLeaves(k SchemaKey, st *sqlscan.Statement, src statementKeys) ([]keyLeaf, bool) {
	if !k.Fresh || slices.ContainsFunc(k.NullWhere, func(col string) bool { return !src.omits(col) }) {
		return nil, false // not a key, or a partial one over rows this INSERT may not be among
	}
	var leaves []keyLeaf
	for _, col := range k.Columns {
		vs, given := src.values(col)
		if !given {
			return nil, false
		}
		for _, v := range vs {
			if v == nil && !literalBound(st, col) {
				return nil, false // a value not seen
			}
			if !b.keyLeaves(v, &leaves) {
				return nil, false
			}
		}
	}
	return leaves, true
}

// literalBound reports whether the INSERT gives col a literal in every row.
func literalBound(st *sqlscan.Statement, col string) bool {
	i := slices.IndexFunc(st.Inserts, func(c sqlscan.InsertCol) bool { return strings.EqualFold(c.Column, col) })
	if i < 0 {
		return false
	}
	for _, p := range st.Inserts[i].Values {
		if !p.IsZero() {
			return false
		}
	}
	return true
}

// scanErrorHeeded reports whether call returns a row (QueryRow) whose
// every Scan's error is returned or compared with nil.
func scanErrorHeeded(call ssa.CallInstruction) bool {
	c, ok := call.(*ssa.Call)
	if !ok {
		return false
	}
	scans := 0
	for _, ref := range referrers(c) {
		scan, ok := ref.(*ssa.Call)
		if !ok {
			continue
		}
		sc := scan.Common()
		onRow := sc.IsInvoke() && sc.Value == c || !sc.IsInvoke() && len(sc.Args) > 0 && sc.Args[0] == c
		if f := calleeFunc(sc); !onRow || f == nil || f.Name() != "Scan" {
			return false
		}
		if !errorHeeded(scan) {
			return false
		}
		scans++
	}
	return scans > 0
}

// A keyLeaf is a value a key is built from: an SSA value of its function,
// or a field of one of its parameters that the function never loads
// (a struct its caller fills).
type keyLeaf struct {
	v     ssa.Value
	field string
}

// keyLeaves adds to out the leaves v is built from (above) and reports
// whether none is drawn fresh.
func (b *builder) keyLeaves(v ssa.Value, out *[]keyLeaf) bool {
	if v == nil {
		return true // a literal
	}
	if b.drawnFresh(v) {
		return false
	}
	b.addLeaves(v, 0, out)
	return true
}

func (b *builder) addLeaves(v ssa.Value, depth int, out *[]keyLeaf) {
	v = unwrap(v)
	if c := capturedValue(v); c != v {
		v = unwrap(c)
	}
	if depth < 8 {
		switch x := v.(type) {
		case *ssa.Const:
			return
		case *ssa.Convert:
			if isStringish(x.Type()) && isStringish(x.X.Type()) {
				b.addLeaves(x.X, depth+1, out)
				return
			}
		case *ssa.BinOp:
			if x.Op == token.ADD && isStringish(x.Type()) {
				b.addLeaves(x.X, depth+1, out)
				b.addLeaves(x.Y, depth+1, out)
				return
			}
		case *ssa.Call:
			if parts, ok := joinedParts(x); ok {
				for _, p := range parts {
					b.addLeaves(p, depth+1, out)
				}
				return
			}
		}
	}
	*out = append(*out, keyLeaf{v: v})
}

// joinedParts returns the operands a call joins into a string with only
// constant text between them: fmt.Sprintf (or Appendf onto nil) with a
// constant format, strings.Join of a slice literal with a constant
// separator.
func joinedParts(call *ssa.Call) ([]ssa.Value, bool) {
	f := calleeFunc(call.Common())
	if f == nil || f.Pkg() == nil {
		return nil, false
	}
	args := call.Common().Args
	switch {
	case f.Pkg().Path() == "fmt" && f.Name() == "Sprintf" && len(args) == 2:
		if _, ok := constString(args[0]); !ok {
			return nil, false
		}
		return variadic(args[1])
	case f.Pkg().Path() == "fmt" && f.Name() == "Appendf" && len(args) == 3 && isNilConst(args[0]):
		if _, ok := constString(args[1]); !ok {
			return nil, false
		}
		return variadic(args[2])
	case f.Pkg().Path() == "strings" && f.Name() == "Join" && len(args) == 2:
		if _, ok := constString(args[1]); !ok {
			return nil, false
		}
		return variadic(args[0])
	}
	return nil, false
}

// leaseKeyLeaves returns the leaves of the key l locks, or false when it
// is not known.
func (b *builder) leaseKeyLeaves(l *Lease) ([]keyLeaf, bool) {
	key := b.leaseKey(l)
	if key == nil {
		return nil, false
	}
	var out []keyLeaf
	if !b.keyLeaves(key, &out) || len(out) == 0 {
		return nil, false
	}
	return out, true
}

// leaseKey returns the value of the key l's acquiring call locks, or nil.
func (b *builder) leaseKey(l *Lease) ssa.Value {
	if l.Call == nil || l.Kind != Acquired && l.Kind != Declared {
		return nil
	}
	if k := b.redisLockKey(l.Call.Common()); k != nil {
		return k
	}
	if h, ok := unwrap(callRecvOrHolder(l)).(*ssa.Call); ok {
		if k := b.redisLockKey(h.Common()); k != nil {
			return k // a redsync mutex made with its name
		}
	}
	return b.wrapperKey(l.Call.Common())
}

// callRecvOrHolder returns the lock object of l's acquiring call.
func callRecvOrHolder(l *Lease) ssa.Value {
	if l.Holder != nil {
		return l.Holder
	}
	return receiverOf(l.Call.Common())
}

// wrapperKey returns the key a call of an acquire wrapper locks, by its
// RoleFact.Key: the argument, or the receiver's field as the constructor
// or struct literal that made the receiver set it.
func (b *builder) wrapperKey(c *ssa.CallCommon) ssa.Value {
	fn := calleeFunc(c)
	if fn == nil {
		return nil
	}
	rf := b.roleFact(fn)
	if rf == nil || !rf.KeyKnown {
		return nil
	}
	if rf.Key.Field == "" {
		return arg(c, rf.Key.Param)
	}
	recv := receiverOf(c)
	if recv == nil {
		return nil
	}
	switch x := unwrap(recv).(type) {
	case *ssa.Call:
		ctor := calleeFunc(x.Common())
		var kf LockKeyCtorFact
		if ctor != nil && b.fact(ctor, &kf) {
			return arg(x.Common(), kf.Param)
		}
	case *ssa.Alloc:
		return onlyFieldStore(x, rf.Key.Field)
	}
	return nil
}

// wrappedKey returns what the lock key of fn, an acquire wrapper, is: a
// parameter, or a field of its receiver, when every acquire it makes
// locks that one.
func (b *builder) wrappedKey(fn *ssa.Function) (ParamField, bool) {
	var key ParamField
	found := false
	for call, c := range b.resolvedCalls(fn) {
		if c.role&(RoleAcquire|RoleTryAcquire) == 0 {
			continue
		}
		pf, ok := b.callKeyParam(fn, call.Common())
		if !ok || found && pf != key {
			return ParamField{}, false
		}
		key, found = pf, true
	}
	return key, found
}

// callKeyParam returns which parameter, or field of its receiver, of fn
// the acquire c that fn makes locks.
func (b *builder) callKeyParam(fn *ssa.Function, c *ssa.CallCommon) (ParamField, bool) {
	if k := b.redisLockKey(c); k != nil {
		return keyParam(fn, k)
	}
	if callee := calleeFunc(c); callee != nil && fn.Signature.Recv() != nil && len(fn.Params) > 0 {
		// l.Lock(ctx) in l's own WaitLock: the same receiver's field
		if rf := b.roleFact(callee); rf != nil && rf.KeyKnown && rf.Key.Field != "" && unwrap(receiverOf(c)) == fn.Params[0] {
			return rf.Key, true
		}
	}
	return keyParam(fn, b.wrapperKey(c))
}

// keyParam returns the parameter of fn that v is or is built from
// (lockhelpers.go; receiver -1), or the receiver's field v loads.
func keyParam(fn *ssa.Function, v ssa.Value) (ParamField, bool) {
	if v == nil {
		return ParamField{}, false
	}
	v = unwrap(v)
	if src, ok := keyBuiltFrom(v).(*ssa.Parameter); ok && src != v && src.Parent() == fn {
		v = src // serialKey(key): a key built from the parameter (lockhelpers.go)
	}
	if p, ok := v.(*ssa.Parameter); ok {
		if i := paramIndex(fn, p); i >= 0 {
			return ParamField{Param: i}, true
		}
		return ParamField{}, false
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return ParamField{}, false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok || fn.Signature.Recv() == nil || len(fn.Params) == 0 || unwrap(fa.X) != fn.Params[0] {
		return ParamField{}, false
	}
	return ParamField{Param: -1, Field: fieldName(fa.X.Type(), fa.Field)}, true
}

// exportKeyCtorFacts records a LockKeyCtorFact for each function of the
// package that returns a new lock object (a pointer to a struct literal
// of a type whose acquire locks its field F, RoleFact.Key) with F set to
// one of its parameters.
func (b *builder) exportKeyCtorFacts() {
	fields := make(map[*types.Named]string)
	for obj, facts := range b.local {
		for _, f := range facts {
			rf, ok := f.(*RoleFact)
			if !ok || !rf.KeyKnown || rf.Key.Field == "" {
				continue
			}
			if recv := obj.Signature().Recv(); recv != nil {
				if n, ok := types.Unalias(derefType(recv.Type())).(*types.Named); ok {
					fields[n] = rf.Key.Field
				}
			}
		}
	}
	if len(fields) == 0 {
		return
	}
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		if obj == nil || fn.Signature.Recv() != nil || fn.Signature.Results().Len() == 0 {
			continue
		}
		n, ok := types.Unalias(derefType(fn.Signature.Results().At(0).Type())).(*types.Named)
		if !ok || fields[n] == "" {
			continue
		}
		param := alwaysReturned(fn, func(v ssa.Value) int { // the index + 1: 0 is none
			alloc, ok := unwrap(v).(*ssa.Alloc)
			if !ok {
				return 0
			}
			if k := onlyFieldStore(alloc, fields[n]); k != nil {
				return paramIndex(fn, k) + 1
			}
			return 0
		})
		if param > 0 {
			b.setLocal(obj, &LockKeyCtorFact{Param: param - 1})
		}
	}
}

// judgeFreshKeys decides the writes whose unique key can hold a fresh
// identifier (Write.keyLeaves): fenced when the key is built from the key
// of a lease held there, judged by the callers (Write.Converge, LeaseKey)
// when it is built from the function's parameters, and unfenced
// otherwise.
func (b *builder) judgeFreshKeys() {
	for _, w := range b.model.Writes {
		if w.Fenced || w.keyWhat == "" {
			continue
		}
		w.Converge, w.leaseKey = nil, false
		if b.tiedToLease(w) {
			w.Fenced, w.keyed = true, "an INSERT whose unique key "+w.keyWhat+" is built from the key of "+w.tiedTo+": a duplicate fails"
			w.FencedBy = "a create-if-absent: " + w.keyed
			b.keyed[w.Call] = w.keyed
			continue
		}
		var params []ParamField
		for _, lf := range w.keyLeaves {
			pf, ok := leafParam(w.Fn, lf)
			if !ok {
				params = nil
				break
			}
			params = appendParam(params, pf)
		}
		if len(params) > 0 {
			w.Converge, w.leaseKey = params, true
		}
	}
}

// tiedToLease reports whether every leaf of w's key is a leaf of the key
// of one lease held at w, and records that lease's name in w.tiedTo.
func (b *builder) tiedToLease(w *Write) bool {
	for _, l := range w.Held {
		lks, ok := b.leaseKeyLeaves(l)
		if !ok {
			continue
		}
		all := true
		for _, lf := range w.keyLeaves {
			if lf.field != "" || !slices.ContainsFunc(lks, func(k keyLeaf) bool { return k.field == "" && sameValue(k.v, lf.v, 0) }) {
				all = false
				break
			}
		}
		if all {
			w.tiedTo = l.What
			return true
		}
	}
	return false
}

// leafParam returns the parameter (or parameter's field) of fn a leaf is.
func leafParam(fn *ssa.Function, lf keyLeaf) (ParamField, bool) {
	if fn.Parent() != nil {
		return ParamField{}, false
	}
	if lf.field != "" {
		if i := paramIndex(fn, lf.v); i >= 0 {
			return ParamField{Param: i, Field: lf.field}, true
		}
		return ParamField{}, false
	}
	if i := paramIndex(fn, lf.v); i >= 0 {
		return ParamField{Param: i}, true
	}
	if load, ok := lf.v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			if i := paramIndex(fn, fa.X); i >= 0 {
				return ParamField{Param: i, Field: fieldName(fa.X.Type(), fa.Field)}, true
			}
		}
	}
	return ParamField{}, false
}

// leaseKeyCall reads a call of a function whose ConvergeFact is marked
// LeaseKey: the values the caller passes for cf.Values become w's key
// leaves, judged by judgeFreshKeys.
func (b *builder) leaseKeyCall(w *Write, fn *ssa.Function, call ssa.CallInstruction, cf *ConvergeFact) {
	var leaves []keyLeaf
	for _, pf := range cf.Values {
		a := arg(call.Common(), pf.Param)
		if a == nil {
			return
		}
		v := a
		if pf.Field != "" {
			x := unwrap(a)
			if i := paramIndex(fn, x); i >= 0 {
				leaves = append(leaves, keyLeaf{v: x, field: pf.Field})
				continue
			}
			alloc, ok := x.(*ssa.Alloc)
			if !ok {
				return
			}
			if v, ok = onlyStore(alloc, pf.Field, call); !ok {
				return
			}
			if v == nil {
				continue // the zero value: a constant
			}
		}
		if !b.keyLeaves(v, &leaves) {
			return
		}
	}
	w.keyLeaves, w.keyWhat = leaves, "(of the rows "+w.What+" inserts)"
}
