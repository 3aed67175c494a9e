package lease

import (
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// deriveWriteFacts learns which of the package's functions write (so a call
// to one from a lease region is a write) and which write fenced by a
// parameter, and records the calls to them as writes. Helpers of helpers
// need several rounds; recursion ends it when nothing changes.
func (b *builder) deriveWriteFacts() {
	for range len(b.funcs) + 1 {
		b.exportCASFacts()
		b.fenceByCAS()
		b.fenceByConflict()
		b.judgeFreshKeys()
		b.fenceByKeyedInsert()
		b.fenceBoundedDecrements()
		if !b.updateWriteFacts() {
			return
		}
		b.addFactWrites()
	}
}

// updateWriteFacts recomputes the write facts of every declared function
// and reports whether any changed.
func (b *builder) updateWriteFacts() bool {
	byFunc := make(map[*ssa.Function][]*Write)
	for _, w := range b.model.Writes {
		if w.continues && w.Fn.Parent() != nil {
			continue
		}
		byFunc[outermost(w.Fn)] = append(byFunc[outermost(w.Fn)], w)
	}
	changed := false
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		if obj == nil || b.dirs.roles[obj] != 0 || b.ix.knowsPath(b.pass.Pkg.Path()) || b.fencegen.declares(obj) {
			continue // a lock library's own writes implement the lock; fencegen's API says what it does
		}
		if b.setWriteFact(fn, b.beforeOwnRelease(fn, obj, byFunc[fn])) {
			changed = true
		}
	}
	return changed
}

// beforeOwnRelease returns writes without those fn, a release that writes
// first (RoleFact.WritesFirst), makes once it has let go: they are under
// no lease of its caller's.
func (b *builder) beforeOwnRelease(fn *ssa.Function, obj *types.Func, writes []*Write) []*Write {
	if f := b.roleFact(obj); f == nil || !f.WritesFirst {
		return writes
	}
	releases := make(map[ssa.Instruction]bool)
	for call, c := range b.resolvedCalls(fn) {
		if _, now := call.(*ssa.Call); now && c.role.Has(RoleRelease) {
			releases[call] = true
		}
	}
	nilEdges := nilReleaseEdges(releases) // `if lock != nil { lock.Release() }` lets go of any lock it holds
	return slices.DeleteFunc(slices.Clone(writes), func(w *Write) bool {
		return w.Fn == fn && w.Call != nil && releasedAt(w.Call, releases, nilEdges)
	})
}

// unfencedOwn returns the writes a function makes unfenced while it holds
// no lease of its own on every path, or nil when one of them is out of
// sight.
func unfencedOwn(writes []*Write) []*Write {
	var out []*Write
	for _, w := range writes {
		if w.heldOwn || w.LockImpl || w.Fenced {
			continue
		}
		if w.Unseen != "" || w.Call == nil {
			return nil
		}
		out = append(out, w)
	}
	return out
}

// setWriteFact records what fn's writes (made on some path where fn holds
// no lease of its own: heldOwn) mean for its callers, and reports whether
// it changed.
func (b *builder) setWriteFact(fn *ssa.Function, writes []*Write) bool {
	obj := declaredFunc(fn)
	var unfenced, spawned, fenced, cond, onceRecv *Write
	var converge []*Write
	outsideOf := ""
	allSpawned := true
	for _, w := range writes {
		if !w.heldOwn && !w.LockImpl && !w.Fenced && w.once == oncePerCall && !w.spawned {
			allSpawned = false
		}
		switch {
		case w.once == oncePerProcess:
		case w.once == oncePerRecv:
			if onceRecv == nil && !w.Fenced {
				onceRecv = w
			}
		case w.heldOwn || w.LockImpl:
		case !w.Fenced && w.Unseen == "" && len(w.Converge) > 0 && b.goroutineLock(w.Fn) == "":
			converge = append(converge, w)
		case !w.Fenced && w.Unseen == "" && b.goroutineLock(w.Fn) != "":
			if spawned == nil {
				spawned, outsideOf = w, b.goroutineLock(w.Fn)
			}
		case w.Unseen != "":
			if w.cond != nil && cond == nil {
				cond = w
			}
		case !w.Fenced && unfenced == nil:
			unfenced = w
		case w.Fenced && fenced == nil && (tokenParam(fn, w.Token) >= 0 || w.keyExists != nil && tokenParam(fn, w.keyExists) >= 0 ||
			w.sessionLease != nil && tokenParam(fn, w.sessionLease) >= 0 || w.kubeObject != nil):
			fenced = w
		}
	}
	appends, accumulates := true, true
	for _, w := range writes {
		if !w.heldOwn && !w.LockImpl && !w.Fenced && !w.Append {
			appends = false
		}
		if !w.heldOwn && !w.LockImpl && !w.Fenced && !w.accumulates {
			accumulates = false
		}
	}
	freshKeys := freshParamsOf(writes)
	keyParams := keyParamsOf(writes)
	keys := ""
	if unfenced != nil && appends && obj != nil {
		keys = b.goctlInsertKeys(fn, unfencedOwn(writes))
	}
	if unfenced == nil && spawned != nil {
		unfenced = spawned
	} else {
		outsideOf = ""
	}
	once := unfenced == nil && onceRecv != nil && fenced == nil && cond == nil && len(converge) == 0
	if once {
		unfenced = onceRecv
	}
	switch {
	case unfenced != nil:
		var old WritesFact
		plain := spawned == nil && onceRecv == nil && fenced == nil && cond == nil && len(converge) == 0
		var cases []WriteCase
		var sites []Site
		var impls int
		if plain {
			// only plain unfenced writes: a call that reaches none of
			// them writes nothing this fact could stand for
			cases = b.writeCases(writes)
		}
		if plain && cases == nil {
			unfenced = b.factNamedWrite(unfenced, writes)
		}
		if plain {
			sites, impls = b.writeSites(writes)
		}
		f := &WritesFact{System: unfenced.System, What: b.describeWrite(unfenced), Advice: ownAdvice(unfenced), Dispatch: unfenced.Dispatch, OutsideOf: outsideOf, Append: appends, Accumulates: accumulates, FreshKeys: freshKeys, KeyParams: keyParams,
			Spawned: allSpawned && !once, OnceRecv: once, Keys: keys, Cases: cases, Sites: sites, Site: b.siteOf(unfenced), Implementations: impls}
		f.BoundColumn, f.BoundParam = boundOfAll(fn, writes)
		f.Session, f.SessionField = b.sessionParamOf(fn, unfencedOf(writes))
		if b.fact(obj, &old) && sameWritesFact(&old, f) {
			return false
		}
		b.setLocal(obj, f)
	case fenced != nil:
		var old FencedByParamFact
		param, field := tokenParamField(fn, fenced.Token)
		if field == "" && fenced.TokenField != nil {
			field = fenced.TokenField.Name()
		}
		leaseKey := fenced.Token == nil && fenced.keyExists != nil
		if leaseKey {
			param, field = tokenParam(fn, fenced.keyExists), ""
		}
		kubeObject := fenced.Token == nil && fenced.kubeObject != nil
		if kubeObject {
			param, field = tokenParam(fn, fenced.kubeObject), ""
		}
		sessionLease := fenced.Token == nil && fenced.sessionLease != nil
		if sessionLease {
			param, field = tokenParam(fn, fenced.sessionLease), ""
		}
		f := &FencedByParamFact{System: fenced.System, Param: param, Field: field, What: b.describeWrite(fenced), Dispatch: fenced.Dispatch, TokenSource: fenced.TokenSource,
			LeaseKey: leaseKey, KubeObject: kubeObject, SessionLease: sessionLease}
		if b.fact(obj, &old) && old == *f {
			return false
		}
		b.setLocal(obj, f)
	case len(converge) > 0 && cond == nil && fenced == nil:
		var old ConvergeFact
		f := &ConvergeFact{System: converge[0].System, What: b.describeWrite(converge[0]), Dispatch: converge[0].Dispatch, LeaseKey: true}
		for _, w := range converge {
			f.LeaseKey = f.LeaseKey && w.leaseKey // else constants only, which a converging upsert needs
			for _, pf := range w.Converge {
				f.Values = appendParam(f.Values, pf)
			}
		}
		if b.fact(obj, &old) && sameConvergeFact(&old, f) {
			return false
		}
		b.setLocal(obj, f)
	case cond != nil:
		var old SQLCondFact
		f := *cond.cond
		f.What = b.describeWrite(cond)
		if b.fact(obj, &old) && sameCondFact(&old, &f) {
			return false
		}
		b.setLocal(obj, &f)
	default:
		return false
	}
	return true
}

func sameConvergeFact(x, y *ConvergeFact) bool {
	return x.System == y.System && x.What == y.What && x.Dispatch == y.Dispatch && x.LeaseKey == y.LeaseKey && slices.Equal(x.Values, y.Values)
}

// ownAdvice returns w's advice when it is not its store's usual one, for
// a caller's diagnostic to give it too.
func ownAdvice(w *Write) string {
	if w.Advice == w.System.FenceAdvice() {
		return ""
	}
	return w.Advice
}

// describeWrite says where a write happens, for a caller's diagnostic:
// "ExecContext (UPDATE docs) at store.go:41".
func (b *builder) describeWrite(w *Write) string {
	if w.Via != "" && w.Note != "" {
		return fmt.Sprintf("%s, via %s, %s", w.Via, w.What, w.Note)
	}
	if w.Via != "" {
		return fmt.Sprintf("%s, via %s", w.Via, w.What)
	}
	if w.Note != "" {
		return fmt.Sprintf("%s at %s, %s", w.What, b.shortPos(w.Pos), w.Note)
	}
	return fmt.Sprintf("%s at %s", w.What, b.shortPos(w.Pos))
}

// addFactWrites records as writes the calls to functions that gained write
// facts, with the leases held there.
func (b *builder) addFactWrites() {
	b.refreshCases()
	b.refreshSites()
	b.refreshSessions()
	b.calls(func(fn *ssa.Function, call ssa.CallInstruction) bool {
		if b.writeCalls[call] {
			return true
		}
		w := b.factWrite(fn, call)
		if w == nil {
			w = b.spawnedWrite(fn, call)
		}
		if w == nil {
			w = b.ranWrite(fn, call)
		}
		if w == nil {
			w = b.nextWrite(fn, call)
		}
		if w != nil {
			b.markWrite(w)
			b.model.Writes = append(b.model.Writes, w)
			b.writeCalls[call] = true
		}
		return true
	})
	slices.SortStableFunc(b.model.Writes, func(x, y *Write) int { return int(x.Pos - y.Pos) })
}

// outermost returns the declared function a closure is nested in.
func outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// tokenParam returns the index (receiver excluded) of the parameter of fn
// that carries the token v, or -1.
func tokenParam(fn *ssa.Function, v ssa.Value) int {
	i, _ := tokenParamField(fn, v)
	return i
}

// tokenParamField returns the index (receiver excluded) of the parameter of
// fn that v is or is a field of, and that field's name; -1 if none.
func tokenParamField(fn *ssa.Function, v ssa.Value) (int, string) {
	field := ""
	for depth := 0; v != nil && depth < 4; depth++ {
		switch x := unwrap(v).(type) {
		case *ssa.Parameter:
			i := slices.Index(fn.Params, x)
			if fn.Signature.Recv() != nil {
				i--
			}
			return i, field
		case *ssa.Field:
			if field == "" {
				field = fieldName(x.X.Type(), x.Field)
			}
			v = x.X
		case *ssa.FieldAddr:
			if field == "" {
				field = fieldName(x.X.Type(), x.Field)
			}
			v = x.X
		case *ssa.UnOp:
			v = x.X
		case *ssa.Convert:
			v = x.X
		default:
			return -1, ""
		}
	}
	return -1, ""
}
