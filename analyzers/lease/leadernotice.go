package lease

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Raft tells a node that it became or stopped being the leader by sending
// true or false on a channel: the one Raft.LeaderCh returns, or the
// application's own, handed to raft as Config.NotifyCh. A leader loop
// receives the notice and starts its work when it says true:
//
//	a.leaderCh = r.LeaderCh()
//	...
//	case isLeader := <-a.leaderCh:
//		if isLeader {
//			go a.leaderLoop(stop) // the leader's work: it runs as leader
//		}
//
// The notice is a validity check, as a cached IsLeader is: the work it
// starts runs on its word, and a leader deposed while paused (its followers
// elect another when its heartbeats stop) goes on until it hears the
// false, writing over the new leader's work unless the store rejects it.
// The blocks a true notice guards act as the holder (a Checked lease), and
// heldcheck reports the notice where it guards an unfenced write. The
// channel is followed through the struct field or package variable it is
// kept in, within the package that keeps it.

// leaderNoticeChecks records, as validity checks, the receives of raft's
// leadership notices that decide a branch.
func (b *builder) leaderNoticeChecks() {
	chans := b.leaderNoticeChans()
	if len(chans) == 0 {
		return
	}
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		v, ok := instr.(ssa.Value)
		if !ok {
			return
		}
		ch := receivedFrom(v)
		if ch == nil || !typeIsBool(v.Type()) {
			return
		}
		what, ok := chans[noticeKey(ch)]
		if !ok {
			return
		}
		flow := newCheckFlow()
		flow.follow(v, +1)
		if len(flow.branches) == 0 {
			return
		}
		b.model.Checks = append(b.model.Checks, &Check{Pos: receivePos(v), Fn: fn, System: Raft,
			What: "the leadership notice received from " + what, held: flow.branches})
	})
}

// leaderNoticeChans returns the package's channels of raft leadership
// notices, by noticeKey, with the API they come from.
func (b *builder) leaderNoticeChans() map[any]string {
	chans := make(map[any]string)
	add := func(v ssa.Value, what string) {
		if k := noticeKey(v); k != nil {
			chans[k] = what
		}
		for _, ref := range referrers(v) { // kept in a field or variable
			if st, ok := ref.(*ssa.Store); ok && st.Val == v {
				if k := flagKey(st.Addr); k != nil {
					chans[k] = what
				}
			}
		}
	}
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		switch x := instr.(type) {
		case *ssa.Call:
			if c, ok := b.resolve(x.Common()); ok && c.api != nil && c.system == Raft && c.api.Name == "LeaderCh" {
				add(x, "Raft.LeaderCh")
			}
		case *ssa.Store:
			if fa, ok := x.Addr.(*ssa.FieldAddr); ok && b.isRaftNotifyCh(fa) {
				add(unwrapChan(x.Val), "raft's Config.NotifyCh")
			}
		}
	})
	return chans
}

// isRaftNotifyCh reports whether fa is the NotifyCh field of raft.Config.
func (b *builder) isRaftNotifyCh(fa *ssa.FieldAddr) bool {
	named := namedOf(fa.X.Type())
	if named == nil || named.Obj().Pkg() == nil || b.ix.canonical(named.Obj().Pkg().Path()) != pkgRaft || named.Obj().Name() != "Config" {
		return false
	}
	return fieldName(fa.X.Type(), fa.Field) == "NotifyCh"
}

// unwrapChan sees through the conversion of a channel to a directional
// channel type (chan bool to chan<- bool).
func unwrapChan(v ssa.Value) ssa.Value {
	if c, ok := v.(*ssa.ChangeType); ok {
		return c.X
	}
	return v
}

// noticeKey names a channel: the field or package variable it is loaded
// from, or the value itself.
func noticeKey(ch ssa.Value) any {
	ch = unwrapChan(ch)
	if load, ok := ch.(*ssa.UnOp); ok && load.Op == token.MUL {
		return flagKey(load.X)
	}
	if _, ok := ch.Type().Underlying().(*types.Chan); ok {
		return ch
	}
	return nil
}

// receivePos is where the value v was received, for a diagnostic.
func receivePos(v ssa.Value) token.Pos {
	if x, ok := v.(*ssa.Extract); ok {
		if sel, ok := x.Tuple.(*ssa.Select); ok {
			if st := selectRecvState(sel, x.Index); st != nil && st.Pos.IsValid() {
				return st.Pos // the case's arrow
			}
			return sel.Pos()
		}
		return x.Tuple.Pos()
	}
	return v.Pos()
}
