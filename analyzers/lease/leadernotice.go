package lease

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"

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

//
// An application's own election tells its owner the same way: the code
// that holds the lease (after Campaign, Lock) sends a bool on a channel the
// owner handed in, true while it leads,
//
//	func (e *elector) becomeLeader() { e.inform <- true } // called holding the lease
//
// and the owner starts its work on a true. Such a channel is a notice
// channel when the package sends a bool on it where a lease is held, in
// the sending function or a few calls up, and never sends a constant true
// where none is. Receives in the same package are notices; a channel kept
// in a field set from a parameter makes that parameter, and those of the
// package's functions that pass it on, notice parameters
// (NoticeParamFact), so the owner's package knows the channel it passes
// there.

// A notice is a channel of leadership notices: where it comes from, for the
// diagnostic, and the lease it tells of.
type notice struct {
	what   string
	lease  string // the lease's name, "the etcd lock taken by Election.Campaign"
	system System
	claim  Claim
}

// leaderNoticeChecks records, as validity checks, the receives of
// leadership notices that decide a branch: raft's, and those of elections
// in the packages this one imports.
func (b *builder) leaderNoticeChecks() {
	b.addNoticeChecks(b.leaderNoticeChans(), nil)
}

// addNoticeChecks records every receive from chans that decides a branch
// (and that keep accepts, when it is not nil) as a validity check, and
// returns how many it recorded.
func (b *builder) addNoticeChecks(chans map[any]notice, keep func(ssa.Instruction) bool) int {
	if len(chans) == 0 {
		return 0
	}
	n := 0
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		v, ok := instr.(ssa.Value)
		if !ok {
			return
		}
		ch := receivedFrom(v)
		if ch == nil || !typeIsBool(v.Type()) {
			return
		}
		from, ok := chans[noticeKey(ch)]
		if !ok || keep != nil && !keep(instr) {
			return
		}
		flow := newCheckFlow()
		flow.follow(v, +1)
		if len(flow.branches) == 0 {
			return
		}
		b.model.Checks = append(b.model.Checks, &Check{Pos: receivePos(v), Fn: fn, System: from.system, Claim: from.claim,
			What: "the leadership notice received from " + from.what, held: flow.branches})
		n++
	})
	return n
}

// leaderNoticeChans returns the package's channels of leadership notices,
// by noticeKey: raft's, and the channels it passes to another package's
// notice parameters.
func (b *builder) leaderNoticeChans() map[any]notice {
	chans := make(map[any]notice)
	add := func(v ssa.Value, n notice) {
		if k := noticeKey(v); k != nil {
			chans[k] = n
		}
		for _, ref := range referrers(v) { // kept in a field or variable
			if st, ok := ref.(*ssa.Store); ok && st.Val == v {
				if k := flagKey(st.Addr); k != nil {
					chans[k] = n
				}
			}
		}
	}
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		switch x := instr.(type) {
		case *ssa.Call:
			if c, ok := b.resolve(x.Common()); ok && c.api != nil && c.system == Raft && c.api.Name == "LeaderCh" {
				add(x, notice{what: "Raft.LeaderCh", system: Raft})
			}
			b.noticeArgs(x.Common(), add)
		case *ssa.Store:
			if fa, ok := x.Addr.(*ssa.FieldAddr); ok && b.isRaftNotifyCh(fa) {
				add(unwrapChan(x.Val), notice{what: "raft's Config.NotifyCh", system: Raft})
			}
		}
	})
	return chans
}

// noticeArgs calls add with each channel call passes to a notice parameter
// of a function of another package.
func (b *builder) noticeArgs(call *ssa.CallCommon, add func(ssa.Value, notice)) {
	obj := calleeFunc(call)
	if obj == nil || obj.Pkg() == b.pass.Pkg {
		return
	}
	var fact NoticeParamFact
	if !b.fact(obj, &fact) {
		return
	}
	for _, i := range fact.Params {
		ch := unwrapChan(arg(call, i))
		if ch == nil {
			continue
		}
		what := fmt.Sprintf("%s (%s sends on it whether %s is held)", chanName(ch), shortName(obj), fact.What)
		add(ch, notice{what: what, lease: fact.What, system: fact.System, claim: fact.Claim})
	}
}

// regionNotices finds the package's own notice channels once the regions
// are known: it exports their notice parameters, records the receives in
// the package as validity checks, and then recomputes the regions so that
// the blocks those receives guard act as the holder. A receive where a
// lease is held is the holder's own and adds nothing.
func (b *builder) regionNotices() {
	if len(b.model.Leases) == 0 {
		return
	}
	chans := b.sentUnderLease()
	if len(chans) == 0 {
		return
	}
	b.exportNoticeParams(chans)
	outside := func(instr ssa.Instruction) bool { return b.leaseHeldAt(instr) == nil }
	if b.addNoticeChecks(chans, outside) == 0 {
		return
	}
	slices.SortStableFunc(b.model.Checks, func(x, y *Check) int { return int(x.Pos - y.Pos) })
	b.model.Leases = nil
	b.findLeases()
}

// sentUnderLease returns the channels, kept in fields or package
// variables, that the package sends a bool on where a lease is held and
// never a constant true where none is.
func (b *builder) sentUnderLease() map[any]notice {
	chans := make(map[any]notice)
	elsewhere := make(map[any]bool)
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		send, ok := instr.(*ssa.Send)
		if !ok || !typeIsBool(send.X.Type()) {
			return
		}
		load, ok := unwrapChan(send.Chan).(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			return
		}
		key := flagKey(load.X)
		if key == nil {
			return
		}
		l := b.heldAround(send, 0)
		if l == nil {
			if v, ok := constBool(send.X); ok && v {
				elsewhere[key] = true
			}
			return
		}
		if _, ok := chans[key]; !ok {
			p := b.pass.Fset.Position(send.Pos())
			what := fmt.Sprintf("%s (sent on at %s:%d while %s is held)", flagName(load.X), filepath.Base(p.Filename), p.Line, l.What)
			chans[key] = notice{what: what, lease: l.What, system: l.System, claim: l.Claim}
		}
	})
	for key := range elsewhere {
		delete(chans, key)
	}
	return chans
}

// exportNoticeParams exports a NoticeParamFact for each function of the
// package that keeps a parameter in the field of a notice channel, and for
// each that passes its own parameter on to such a parameter.
func (b *builder) exportNoticeParams(chans map[any]notice) {
	params := make(map[*ssa.Function]map[int]notice)
	add := func(fn *ssa.Function, i int, n notice) bool {
		if i < 0 {
			return false
		}
		if _, ok := params[fn][i]; ok {
			return false
		}
		if params[fn] == nil {
			params[fn] = make(map[int]notice)
		}
		params[fn][i] = n
		return true
	}
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		if st, ok := instr.(*ssa.Store); ok {
			if n, ok := chans[flagKey(st.Addr)]; ok {
				add(fn, paramIndex(fn, unwrapChan(st.Val)), n)
			}
		}
	})
	for grew := true; grew; {
		grew = false
		for _, fn := range b.funcs {
			for _, i := range slices.Sorted(maps.Keys(params[fn])) {
				n := params[fn][i]
				for _, site := range b.tokens.index().callSites[fn] {
					if caller := site.Parent(); add(caller, paramIndex(caller, unwrapChan(arg(site.Common(), i))), n) {
						grew = true
					}
				}
			}
		}
	}
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		if obj == nil || len(params[fn]) == 0 {
			continue
		}
		idx := slices.Sorted(maps.Keys(params[fn]))
		first := params[fn][idx[0]] // one lease for all, whatever the map's order
		b.setLocal(obj, &NoticeParamFact{Params: idx, System: first.system, What: first.lease, Claim: first.claim})
	}
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

// chanName names the channel ch is loaded from, for a diagnostic.
func chanName(ch ssa.Value) string {
	if load, ok := ch.(*ssa.UnOp); ok && load.Op == token.MUL {
		return flagName(load.X)
	}
	return ch.Name()
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
