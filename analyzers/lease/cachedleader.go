package lease

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Services keep the current leader's ID in a field that an election loop
// updates (etcd's Election.Observe, or Election.Leader polled) and compare
// it with their own ID later:
//
//	case resp := <-election.Observe(ctx): e.leaderID = string(resp.Kvs[0].Value)
//	...
//	func (s *Storage) IsLeader() bool { return s.persist.Leader() == s.persist.ID() }
//
// Reading the field is reading a cached Election.Leader: compared with the
// node's own ID it is a validity check, stale by the write it guards. A
// method that returns the field is a check of the same kind (its RoleFact
// says ValueOnly), so calls of it through the application's interfaces
// are checks too.

// findLeaderFields records the package's struct fields that are assigned
// a leader's value from an election: a value received from an Observe
// channel, or a ValueOnly check's result (Election.Leader).
func (b *builder) findLeaderFields() {
	for st, fa := range b.fieldStores() {
		fv := originVar(fieldVar(fa.X.Type(), fa.Field))
		if fv == nil || fv.Pkg() != b.pass.Pkg || !typeIsString(fv.Type()) && !isByteSlice(fv.Type()) {
			continue
		}
		if system, ok := b.fromElection(st.Val, 0, make(map[ssa.Value]bool)); ok {
			b.leaderFields[fv] = system
		}
	}
}

// fromElection reports whether v is derived from an election's answer
// about the leader, and whose election it is.
func (b *builder) fromElection(v ssa.Value, depth int, seen map[ssa.Value]bool) (System, bool) {
	if v == nil || depth > 16 || seen[v] { // resp.Kvs[0].Value from a select over a phi of Observe calls is 12 steps
		return "", false
	}
	seen[v] = true
	if call, ok := v.(*ssa.Call); ok {
		if c, ok := b.resolve(call.Common()); ok && c.api != nil &&
			(c.role.Has(RoleObserve) || c.role.Has(RoleCheck) && c.api.Held == ValueOnly) {
			return c.system, true
		}
		if call.Call.IsInvoke() || call.Call.StaticCallee() != nil && !isConversion(call) {
			return "", false // another function's result: not followed
		}
	}
	if local, ok := v.(*ssa.Alloc); ok {
		// A response whose fields are addressed lives in a local
		// (case resp := <-ch: ... resp.Kvs[0]): it holds what is stored in it.
		for _, ref := range *local.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == local {
				if system, ok := b.fromElection(st.Val, depth+1, seen); ok {
					return system, true
				}
			}
		}
		return "", false
	}
	instr, ok := v.(ssa.Instruction)
	if !ok {
		return "", false
	}
	var ops []*ssa.Value
	for _, op := range instr.Operands(ops) {
		if op == nil || *op == nil {
			continue
		}
		if system, ok := b.fromElection(*op, depth+1, seen); ok {
			return system, true
		}
	}
	return "", false
}

// isConversion reports whether call is a builtin or a conversion-like
// helper whose result carries its argument (string(b) is a Convert, not a
// call; this covers the builtins).
func isConversion(call *ssa.Call) bool {
	_, ok := call.Call.Value.(*ssa.Builtin)
	return ok
}

// isByteSlice reports whether t is []byte.
func isByteSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	return ok && types.Identical(s.Elem(), types.Typ[types.Byte])
}

// leaderGetterRole returns the role of fn when it returns a leader field
// (func (e *Etcd) Leader() string { return e.leaderID }): a cached
// Election.Leader, a check whose value says "held" when it equals ours.
// Or when it returns a leader flag (func (l *Elector) IsLeader() bool {
// return l.isLeader }): a cached IsLeader, a check whose true says "held".
func (b *builder) leaderGetterRole(fn *ssa.Function) (System, HeldRule, bool) {
	if fn.Signature.Results().Len() != 1 {
		return "", 0, false
	}
	if len(b.leaderFlags) > 0 && typeIsBool(fn.Signature.Results().At(0).Type()) {
		if system, ok := everyReturn(fn, b.returnedFlag); ok {
			return system, AnyResult, true
		}
	}
	if len(b.leaderFields) > 0 {
		if system, ok := everyReturn(fn, b.returnedLeaderField); ok {
			return system, ValueOnly, true
		}
	}
	return "", 0, false
}

// returnedFlagName describes the leader flag the getter fn returns, for
// RoleFact.Returns: "the leader flag leader, set in OnStartedLeading"; ""
// when it returns none.
func (b *builder) returnedFlagName(fn *ssa.Function) string {
	for _, blk := range fn.Blocks {
		if ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok && len(ret.Results) == 1 {
			for _, r := range resultValues(ret.Results[0]) {
				if flag, ok := b.readFlag(r); ok {
					return "the leader flag " + flag.name + ", " + flag.origin
				}
			}
		}
	}
	return ""
}

// returning describes what a getter returns after sep, for the name of a
// call of it: " (which returns the leader flag ..." after "(", ", which
// returns ..." after ","; "" for any other function. A "(" opens a
// parenthesis it closes.
func (f *RoleFact) returning(sep string) string {
	switch {
	case f.Returns == "":
		return ""
	case sep == "(":
		return " (which returns " + f.Returns + ")"
	default:
		return sep + " which returns " + f.Returns
	}
}

// returnedFlag says whose lease the leader flag v reads caches, also
// through the result slot of a function with defers.
func (b *builder) returnedFlag(v ssa.Value) (System, bool) {
	flag, ok := returnedFlagIn(b.leaderFlags, v)
	return flag.system, ok
}

// returnedFlagIn returns the flag among flags that v, a returned value,
// reads: every value v stands for (resultValues) reads that flag.
func returnedFlagIn(flags map[any]leaderFlag, v ssa.Value) (leaderFlag, bool) {
	values := resultValues(v)
	var flag leaderFlag
	for _, r := range values {
		f, ok := flags[flagKey(flagRead(r))]
		if !ok {
			return leaderFlag{}, false
		}
		flag = f
	}
	return flag, len(values) > 0
}

// readFlag returns the leader flag v reads, if it reads one.
func (b *builder) readFlag(v ssa.Value) (leaderFlag, bool) {
	flag, ok := b.leaderFlags[flagKey(flagRead(v))]
	return flag, ok
}

// returnedLeaderField says whose election the leader field v reads caches.
func (b *builder) returnedLeaderField(v ssa.Value) (System, bool) {
	fv := returnedField(v)
	if fv == nil {
		return "", false
	}
	system, ok := b.leaderFields[fv]
	return system, ok
}

// everyReturn reports whether fn returns, and every return's one result is
// what read accepts, with what read says of the last.
func everyReturn(fn *ssa.Function, read func(ssa.Value) (System, bool)) (System, bool) {
	found := false
	var system System
	for _, blk := range fn.Blocks {
		if ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok && len(ret.Results) == 1 {
			s, ok := read(ret.Results[0])
			if !ok {
				return "", false
			}
			found, system = true, s
		}
	}
	return system, found
}

// flagRead returns the address v reads a flag from (*addr, addr.Load()
// of a sync/atomic.Bool, or *addr != nil of a pointer flag), or nil.
func flagRead(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return x.X
		}
	case *ssa.BinOp:
		if load, p := atomicIntRead(x); p > 0 {
			return load.Call.Args[0]
		}
		if x.Op != token.NEQ {
			return nil
		}
		for _, side := range [2][2]ssa.Value{{x.X, x.Y}, {x.Y, x.X}} {
			if c, ok := side[1].(*ssa.Const); ok && c.IsNil() && isPointer(side[0].Type()) {
				if load, ok := side[0].(*ssa.UnOp); ok && load.Op == token.MUL {
					return load.X
				}
			}
		}
	case *ssa.Call:
		if isAtomicBool(x, "Load") {
			return x.Call.Args[0]
		}
	}
	return nil
}

// atomicIntRead reports whether x tests an integer flag read atomically
// against a constant, and returns the load and what x says: +1 when x is
// true only if the flag is raised (atomic.LoadInt32(&c.leading) == 1, or
// != 0), -1 when only if it is lowered (== 0, != 1), 0 for anything else.
func atomicIntRead(x *ssa.BinOp) (*ssa.Call, int) {
	for _, side := range [2][2]ssa.Value{{x.X, x.Y}, {x.Y, x.X}} {
		load, ok := side[0].(*ssa.Call)
		if !ok || atomicIntArg(load, "Load") == nil {
			continue
		}
		c, ok := side[1].(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
			continue
		}
		raised := constant.Sign(c.Value) != 0
		switch {
		case x.Op == token.EQL && raised, x.Op == token.NEQ && !raised:
			return load, +1
		case x.Op == token.EQL && !raised, x.Op == token.NEQ && raised:
			return load, -1
		}
	}
	return nil, 0
}

// returnedField returns the struct field a returned value was read from,
// also through the result slot a function with defers returns from
// (t0 = local string; *t0 = n.leaderID; rundefers; return *t0).
func returnedField(v ssa.Value) *types.Var {
	if fv := loadedField(v); fv != nil {
		return fv
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var field *types.Var
	for _, ref := range *slot.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != slot {
			continue
		}
		fv := loadedField(st.Val)
		if fv == nil || field != nil && fv != field {
			return nil
		}
		field = fv
	}
	return field
}

// leaderFieldChecks records each read of a leader field whose value decides
// an if (compared with the node's own ID) as a check.
func (b *builder) leaderFieldChecks() {
	if len(b.leaderFields) == 0 {
		return
	}
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		load, ok := instr.(*ssa.UnOp)
		if !ok {
			return
		}
		fv := loadedField(load)
		system, isLeader := b.leaderFields[fv]
		if fv == nil || !isLeader {
			return
		}
		flow := newCheckFlow()
		flow.skipErr, flow.skipNil = true, true
		flow.follow(load, +1)
		if len(flow.branches) == 0 {
			return
		}
		pos := load.Pos()
		if !pos.IsValid() {
			pos = load.X.Pos()
		}
		b.model.Checks = append(b.model.Checks, &Check{Pos: pos, Fn: fn, System: system,
			What: fmt.Sprintf("the cached leader ID %s (set from the %s election)", fv.Name(), system), held: flow.branches})
	})
}
