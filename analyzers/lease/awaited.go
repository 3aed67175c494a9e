package lease

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// An acquire run in a goroutine and awaited over a channel. A lock whose
// Lock takes no context (go-zookeeper's, redsync v1's) is often taken in a
// goroutine, so that its caller can give up on a timeout:
//
//	lock := zk.NewLock(conn, path, acl)
//	errc := make(chan error, 1)
//	go func() { errc <- lock.Lock() }()
//	select {
//	case <-ctx.Done():
//		return nil, ctx.Err()
//	case err := <-errc:
//		return lock, err // held where err is nil
//	}
//
// The caller holds the lease from the receive of the acquire's result on:
// the lease starts there, and a test of the value received (the error; a
// try-acquire's bool) tells success from failure as a test of the call's
// own result does. Matched: a go statement of a closure that sends the
// result of an acquiring call on a channel it captured, and the receives
// from that channel, with their value bound, in the function that starts
// the goroutine.

// awaitedAcquire returns the acquiring call whose result v, a value
// received from a channel, is: a goroutine that v's function starts sends
// that call's result on the channel. The answer is cached per value once
// the roles are known (rolesKnown); before, while inferRoles learns them
// round by round, only a found one is, since a wrapper's role may come in
// a later round. The region flow asks again and again for every receive.
func (b *builder) awaitedAcquire(v ssa.Value) (*ssa.Call, callee, bool) {
	ch := receivedFrom(v)
	if ch == nil {
		return nil, callee{}, false
	}
	if a, ok := b.awaited[v]; ok {
		return a.call, a.c, a.call != nil
	}
	var found awaitedCall
	for _, blk := range v.Parent().Blocks {
		for _, instr := range blk.Instrs {
			if g, ok := instr.(*ssa.Go); ok && found.call == nil {
				found = b.sentAcquire(g, chanVar(ch))
			}
		}
	}
	if found.call != nil || b.rolesKnown {
		b.awaited[v] = found
	}
	return found.call, found.c, found.call != nil
}

// An awaitedCall is an acquire whose result a goroutine sends its starter.
type awaitedCall struct {
	call *ssa.Call
	c    callee
}

// sentAcquire returns the acquire whose result the closure g starts sends
// on ch, a channel (or the variable holding it) of g's function.
func (b *builder) sentAcquire(g *ssa.Go, ch ssa.Value) awaitedCall {
	mc, ok := g.Call.Value.(*ssa.MakeClosure)
	if !ok {
		return awaitedCall{}
	}
	closure := mc.Fn.(*ssa.Function)
	for _, blk := range closure.Blocks {
		for _, instr := range blk.Instrs {
			send, ok := instr.(*ssa.Send)
			if !ok {
				continue
			}
			fv, ok := chanVar(send.Chan).(*ssa.FreeVar)
			if i := slices.Index(closure.FreeVars, fv); !ok || i < 0 || i >= len(mc.Bindings) || mc.Bindings[i] != ch {
				continue
			}
			call := acquireResultOf(send.X)
			if call == nil {
				continue
			}
			if c, ok := b.resolve(call.Common()); ok && c.role&(RoleAcquire|RoleTryAcquire) != 0 {
				return awaitedCall{call, c}
			}
		}
	}
	return awaitedCall{}
}

// acquireResultOf returns the call whose result (or first result) v is.
func acquireResultOf(v ssa.Value) *ssa.Call {
	switch x := v.(type) {
	case *ssa.Call:
		return x
	case *ssa.Extract:
		if c, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 {
			return c
		}
	}
	return nil
}

// awaitedBy returns the lease whose acquire's result v receives, or nil.
func (b *builder) awaitedBy(v ssa.Value) *Lease {
	if b.regions == nil {
		return nil
	}
	if call, c, ok := b.awaitedAcquire(v); ok {
		return b.leaseAt(call, c)
	}
	return nil
}

// chanVar returns what names the channel ch: the variable it is loaded
// from (a captured variable is shared through its address), or ch.
func chanVar(ch ssa.Value) ssa.Value {
	if load, ok := ch.(*ssa.UnOp); ok && load.Op == token.MUL {
		return load.X
	}
	return ch
}

// receivedFrom returns the channel v was received from (<-ch, v, ok :=
// <-ch, a select's receive case), or nil.
func receivedFrom(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.ARROW && !x.CommaOk {
			return x.X
		}
	case *ssa.Extract:
		switch t := x.Tuple.(type) {
		case *ssa.UnOp:
			if t.Op == token.ARROW && x.Index == 0 {
				return t.X
			}
		case *ssa.Select:
			return selectRecvChan(t, x.Index)
		}
	}
	return nil
}

// selectRecvChan returns the channel of the receive case whose value is
// element index of sel's result tuple (index, ok, then one per receive).
func selectRecvChan(sel *ssa.Select, index int) ssa.Value {
	if st := selectRecvState(sel, index); st != nil {
		return st.Chan
	}
	return nil
}

// selectRecvState returns the receive case whose value is element index of
// sel's result tuple, or nil.
func selectRecvState(sel *ssa.Select, index int) *ssa.SelectState {
	recv := 0
	for i := range sel.States {
		if sel.States[i].Dir != types.RecvOnly {
			continue
		}
		if recv+2 == index {
			return sel.States[i]
		}
		recv++
	}
	return nil
}
