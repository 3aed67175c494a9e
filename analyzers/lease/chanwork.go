package lease

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Work sent over a channel. A leader often does not write itself: it picks
// the work and sends it to workers that a constructor or main started,
// outside any region:
//
//	for _, j := range due {                // under the lease
//		s.jobs <- j
//	}
//
//	for j := range s.jobs {                // a worker goroutine
//		s.store.MarkRun(ctx, j.ID)         // writes
//	}
//
// A stale leader's jobs are still in the channel, or still being sent,
// after its lease has gone: the worker's writes for them are made under
// that lease, and reported there, where the worker would check a fence
// handed over with the job. A channel's receivers work under a lease when
// every send on it is made while that lease is held; what a receive
// dominates (the body of a range loop, the code after v := <-ch, a
// select's case, and a function literal made there that is only started or
// called: go func() { ... }()) is then under it, and nothing else is (the
// code before the loop, or after it). Only channels the package sees all of count: an
// unexported field or package variable made here (make(chan T)), whose
// value is only sent on, received from, closed or passed to a function of
// the package that does the same; a channel of struct{}, bool or error is a
// signal, not work.

// A chanWork is a receive of a value from a channel every send on which is
// made under lease.
type chanWork struct {
	recv  ssa.Instruction // the instruction that yields the value received
	lease *Lease
}

// findChannelWork finds the channels whose every send is made under one
// lease and records, by function, the receives of their values
// (regions.received).
func (b *builder) findChannelWork() {
	for _, ch := range b.workChannels() {
		l := b.heldAtEverySend(ch.sends)
		if l == nil || len(ch.recvs) == 0 {
			continue
		}
		work := b.addLease(&Lease{Kind: InCallback, System: l.System, Pos: l.Pos, Fn: l.Fn, Call: l.Call,
			Holder: l.Holder, Session: l.Session, From: l.From, Claim: l.Claim, What: l.What, Sent: ch.name})
		for _, recv := range ch.recvs {
			fn := recv.Parent()
			b.regions.received[fn] = append(b.regions.received[fn], chanWork{recv, work})
		}
	}
}

// A workChannel is what the package does with one channel.
type workChannel struct {
	name   string
	sends  []ssa.Instruction // Send, or Select with a send case on it
	recvs  []ssa.Instruction // the values received
	escape bool              // used some other way, or made elsewhere
}

// workChannels returns the package's unexported channel fields and package
// variables of a work element type, with their sends and receives, in the
// order the package first uses them; channels that escape are left out.
func (b *builder) workChannels() []*workChannel {
	chans := make(map[any]*workChannel) // by flagKey
	var order []*workChannel
	of := func(addr ssa.Value) *workChannel {
		key, name := chanKey(addr)
		if key == nil {
			return nil
		}
		ch := chans[key]
		if ch == nil {
			ch = &workChannel{name: name}
			chans[key] = ch
			order = append(order, ch)
		}
		return ch
	}
	for _, fn := range b.funcs {
		test := inTestFile(b.pass.Fset, fn.Pos())
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				switch x := instr.(type) {
				case *ssa.UnOp:
					if x.Op != token.MUL {
						continue
					}
					if ch := of(x.X); ch != nil && !test {
						b.channelUses(x, ch, map[ssa.Value]bool{})
					}
				case *ssa.Store:
					if ch := of(x.Addr); ch != nil {
						if _, made := unwrapChan(x.Val).(*ssa.MakeChan); !made {
							ch.escape = true // a channel from elsewhere, which others may send on
						}
					}
				}
			}
		}
	}
	return slices.DeleteFunc(order, func(ch *workChannel) bool { return ch.escape })
}

// chanKey returns the key and name of the channel stored at addr when it is
// an unexported field or package variable of a work element type.
func chanKey(addr ssa.Value) (any, string) {
	var v *types.Var
	switch x := addr.(type) {
	case *ssa.FieldAddr:
		v = fieldVar(x.X.Type(), x.Field)
	case *ssa.Global:
		v, _ = x.Object().(*types.Var)
	}
	if v == nil || v.Exported() || !isWorkChan(v.Type()) {
		return nil, ""
	}
	return flagKey(addr), v.Name()
}

// isWorkChan reports whether t is a channel whose values carry work: not a
// signal (struct{}, bool, error).
func isWorkChan(t types.Type) bool {
	c, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	elem := c.Elem()
	if s, ok := elem.Underlying().(*types.Struct); ok && s.NumFields() == 0 {
		return false
	}
	if b, ok := elem.Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
		return false
	}
	return !types.Identical(elem, types.Universe.Lookup("error").Type())
}

// channelUses records what is done with v, a value of the channel ch:
// its sends and receives, following conversions and calls of the
// package's functions that take it as a parameter; any other use makes it
// escape.
func (b *builder) channelUses(v ssa.Value, ch *workChannel, seen map[ssa.Value]bool) {
	if seen[v] {
		return
	}
	seen[v] = true
	for _, ref := range referrers(v) {
		switch x := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.ChangeType:
			b.channelUses(x, ch, seen)
		case *ssa.Send:
			if x.Chan != v || x.X == v {
				ch.escape = true
				continue
			}
			ch.sends = append(ch.sends, x)
		case *ssa.UnOp:
			if x.Op != token.ARROW {
				ch.escape = true
				continue
			}
			ch.recvs = append(ch.recvs, receivedValues(x)...)
		case *ssa.Select:
			b.selectUses(x, v, ch)
		case ssa.CallInstruction:
			b.callUses(x, v, ch, seen)
		default:
			ch.escape = true
		}
	}
}

// receivedValues returns the instructions that yield the value recv
// receives: recv itself, or for v, ok := <-ch (and range) its extract of v.
func receivedValues(recv *ssa.UnOp) []ssa.Instruction {
	if !recv.CommaOk {
		return []ssa.Instruction{recv}
	}
	var out []ssa.Instruction
	for _, ref := range referrers(recv) {
		if x, ok := ref.(*ssa.Extract); ok && x.Index == 0 {
			out = append(out, x)
		}
	}
	return out
}

// selectUses records sel's cases on v: a send case is a send, a receive
// case's value (where the case uses it) a receive.
func (b *builder) selectUses(sel *ssa.Select, v ssa.Value, ch *workChannel) {
	recv := 0
	for _, st := range sel.States {
		if st.Send == v {
			ch.escape = true
		}
		if st.Dir == types.RecvOnly {
			recv++
		}
		if st.Chan != v {
			continue
		}
		if st.Dir == types.SendOnly {
			ch.sends = append(ch.sends, sel)
			continue
		}
		for _, ref := range referrers(sel) {
			if x, ok := ref.(*ssa.Extract); ok && x.Index == recv+1 {
				ch.recvs = append(ch.recvs, x)
			}
		}
	}
}

// callUses follows v passed to a function of the package (go s.worker(ch))
// into its parameter; close, len and cap leave it alone; any other call
// makes it escape.
func (b *builder) callUses(call ssa.CallInstruction, v ssa.Value, ch *workChannel, seen map[ssa.Value]bool) {
	c := call.Common()
	if builtin, ok := c.Value.(*ssa.Builtin); ok {
		switch builtin.Name() {
		case "close", "len", "cap":
			return
		}
	}
	callee := c.StaticCallee()
	if c.IsInvoke() || callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != b.pass.Pkg || len(callee.Blocks) == 0 {
		ch.escape = true
		return
	}
	for i, arg := range c.Args {
		if arg == v {
			if i >= len(callee.Params) {
				ch.escape = true
				return
			}
			b.channelUses(callee.Params[i], ch, seen)
		}
	}
}

// heldAtEverySend returns the lease (no validity check's) held at every one
// of sends, the first of them in the model's order; nil if a send holds
// none, or there is none.
func (b *builder) heldAtEverySend(sends []ssa.Instruction) *Lease {
	var common leaseSet
	for i, send := range sends {
		held := b.heldBefore(send).without(func(l *Lease) bool { return l.Kind == Checked })
		if i > 0 {
			held = held.without(func(l *Lease) bool { return !slices.Contains(common, l) })
		}
		if common = held; len(common) == 0 {
			return nil
		}
	}
	if len(common) == 0 {
		return nil
	}
	return slices.MinFunc(common, func(x, y *Lease) int { return int(x.Pos - y.Pos) })
}

// receivedUnder returns the leases under which the values received before
// instr, in its function, were sent: those of the receives that dominate it.
// A function literal the receiving code starts or calls with the value
// (go func() { ... }(), g.Go(func() error { ... })) does that work too: its
// instructions are under what dominates the closure's making.
func (b *builder) receivedUnder(instr ssa.Instruction) leaseSet {
	if instr == nil || b.regions == nil || len(b.regions.received) == 0 {
		return nil
	}
	var out leaseSet
	for at := instr; at != nil; at = closureSite(at.Parent()) {
		for _, cw := range b.regions.received[at.Parent()] {
			if dominates(cw.recv, at) {
				out = out.with(cw.lease)
			}
		}
	}
	return out
}

// closureSite returns the instruction of its enclosing function that makes
// fn, a function literal, when that is its only use there and the closure
// is only called, started or passed to a call (not stored for later); nil
// otherwise.
func closureSite(fn *ssa.Function) ssa.Instruction {
	if fn == nil || fn.Parent() == nil {
		return nil
	}
	var site ssa.Instruction
	for _, blk := range fn.Parent().Blocks {
		for _, instr := range blk.Instrs {
			if !refersTo(instr, fn) {
				continue
			}
			if site != nil {
				return nil
			}
			site = instr
		}
	}
	switch x := site.(type) {
	case ssa.CallInstruction:
		return site
	case *ssa.MakeClosure:
		for _, ref := range referrers(x) {
			if _, ok := ref.(ssa.CallInstruction); !ok {
				if _, debug := ref.(*ssa.DebugRef); !debug {
					return nil
				}
			}
		}
		return site
	}
	return nil
}

// dominates reports whether every path to y, in one function, passes x
// first.
func dominates(x, y ssa.Instruction) bool {
	xb, yb := x.Block(), y.Block()
	if xb == nil || yb == nil {
		return false
	}
	if xb != yb {
		return xb.Dominates(yb)
	}
	return slices.Index(xb.Instrs, x) < slices.Index(xb.Instrs, y)
}
