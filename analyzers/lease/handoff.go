package lease

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A lock handed over with a value: the region that takes a lock stores the
// lock object in a field of a value and sends the value on a channel; the
// goroutine that receives it runs the work and lets the lock go through
// that field (a dispatcher and its workers):
//
//	if _, err := lock.Lock(stop); err == nil {   // the dispatcher
//		t.lock = lock
//		workers <- t
//	}
//
//	t := <-workers                               // a worker goroutine
//	w.handle(t)                                  // writes, then t.lock.Unlock()
//
// What the receiver does after the receive runs under the lease the sender
// took, and is reported there, where the worker would watch the lock. A
// struct type carries a lease so when, in one function, a lease is held
// both where its lock object is stored into a field of a value of that type
// and where that value is sent on a channel, and some function releases a
// lock it reads from that field (the receiving side's half of the
// hand-over, which tells it from a value that only mentions its lock).
// Every receive of a value of that type, from any channel, then starts the
// lease. Senders and receivers are matched within one package: a
// hand-over across packages is not seen.

// findHandOffs finds the struct types that carry a held lease over a
// channel, and reruns the region analysis over the functions that receive
// one.
func (b *builder) findHandOffs() {
	released := b.releasedFields()
	if len(released) == 0 {
		return
	}
	b.instrs(func(_ *ssa.Function, instr ssa.Instruction) {
		if send, ok := instr.(*ssa.Send); ok {
			b.handOffAt(send, released)
		}
	})
	if len(b.regions.carried) == 0 {
		return
	}
	var receivers []*ssa.Function
	for _, fn := range b.funcs {
		if b.receivesCarrier(fn) {
			receivers = append(receivers, outermost(fn))
		}
	}
	for _, fn := range b.funcs { // parents before closures, as in findLeases
		if slices.Contains(receivers, outermost(fn)) {
			b.flow(fn)
		}
	}
}

// A carrierField is a field of a struct type that holds a lock object.
type carrierField struct {
	named *types.Named
	field int
}

// releasedFields returns the struct fields some function of the package
// reads a lock object from and releases it (t.lock.Unlock()).
func (b *builder) releasedFields() map[carrierField]bool {
	out := make(map[carrierField]bool)
	b.instrs(func(_ *ssa.Function, instr ssa.Instruction) {
		call, ok := instr.(ssa.CallInstruction)
		if !ok {
			return
		}
		if c, ok := b.resolve(call.Common()); !ok || !c.role.Has(RoleRelease) {
			return
		}
		if f, ok := loadedCarrierField(callRecv(call.Common())); ok {
			out[f] = true
		}
	})
	return out
}

// loadedCarrierField returns the field v is loaded from (*t.lock).
func loadedCarrierField(v ssa.Value) (carrierField, bool) {
	load, ok := unwrap(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return carrierField{}, false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return carrierField{}, false
	}
	named := namedOf(fa.X.Type())
	if named == nil {
		return carrierField{}, false
	}
	return carrierField{named, fa.Field}, true
}

// handOffAt records the struct type of the value send sends when a lease
// held there has its lock object stored, also while held, into one of
// that value's released fields.
func (b *builder) handOffAt(send *ssa.Send, released map[carrierField]bool) {
	x := unwrap(send.X)
	named := namedOf(x.Type())
	if named == nil || b.regions.carried[named] != nil {
		return
	}
	held := b.heldBefore(send)
	for _, ref := range referrers(x) {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.X != x || !released[carrierField{named, fa.Field}] {
			continue
		}
		for _, fref := range referrers(fa) {
			st, ok := fref.(*ssa.Store)
			if !ok || st.Addr != fa {
				continue
			}
			for _, l := range held {
				if l.Call != nil && sameLockObject(callRecvOrHolder(l), st.Val) && slices.Contains(b.heldBefore(st), l) {
					b.carry(named, l, send)
					return
				}
			}
		}
	}
}

// sameLockObject reports whether v is the lock object holder.
func sameLockObject(holder, v ssa.Value) bool {
	return holder != nil && unwrap(holder) == unwrap(v)
}

// carry records that values of named carry l, handed over at send.
func (b *builder) carry(named *types.Named, l *Lease, send *ssa.Send) {
	taken, sent := b.pass.Fset.Position(l.Pos), b.pass.Fset.Position(send.Pos())
	// Diagnostics add the line of Pos, the send, to What.
	b.regions.carried[named] = b.addLease(&Lease{Kind: InCallback, System: l.System, Pos: send.Pos(), Fn: l.Fn, Call: l.Call,
		Holder: l.Holder, Session: l.Session, From: l.From, Claim: l.Claim,
		What: fmt.Sprintf("%s at %s:%d and handed over with the %s sent from %s", l.What,
			filepath.Base(taken.Filename), taken.Line, named.Obj().Name(), filepath.Base(sent.Filename))})
}

// receivesCarrier reports whether fn receives a value that carries a lease.
func (b *builder) receivesCarrier(fn *ssa.Function) bool {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			if b.carriedBy(instr) != nil {
				return true
			}
		}
	}
	return false
}

// carriedBy returns the lease carried by the value instr receives from a
// channel (<-ch, v, ok := <-ch, for v := range ch, a select's receive
// case), or nil.
func (b *builder) carriedBy(instr ssa.Instruction) *Lease {
	if b.regions == nil || len(b.regions.carried) == 0 {
		return nil
	}
	v, ok := instr.(ssa.Value)
	if !ok || receivedFrom(v) == nil {
		return nil
	}
	if named := namedOf(v.Type()); named != nil {
		return b.regions.carried[named]
	}
	return nil
}
