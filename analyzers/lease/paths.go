package lease

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// The regions are may-held: a lease is held at a point if any path holds
// it there, which is what a write made under the lease needs to be
// reported. Whether a write is the function's own, made under its own
// lease and so not its callers', needs more: a lease held on every path to
// it. A helper that locks only sometimes (if c.sync { lock(); defer
// unlock() }; write(), or a closure it hands to a lock helper when it is
// synchronized and calls directly otherwise) writes unlocked on the other
// path, where only its caller's lease covers the write.
//
// pathStates keeps, per block, the distinct sets of leases held on entry
// along the paths that reach it (a set of leaseSets: a lease taken on two
// branches by two calls is still some lease on every path). A closure's
// paths start where its creator runs it or hands it over: a direct call
// runs it with what is held there, a lock helper's callback argument with
// that and the helper's lease; any other use (stored, captured, converted)
// keeps the may-held entry as one path.

// maxPathStates bounds the distinct lease sets kept per block; past it a
// function's paths are unknown and its may-held leases are taken as held
// on every path, as they were before paths were told apart.
const maxPathStates = 32

// pathStates holds a function's lease sets per block; unknown says they
// grew past maxPathStates.
type pathStates struct {
	in      map[*ssa.BasicBlock][]leaseSet
	unknown bool
}

// heldOnEveryPath reports whether every path reaching w.Call holds one of
// held (w.Held as markWrite filtered it): the write is made under a lease
// of its function's own, not its callers'.
func (b *builder) heldOnEveryPath(call ssa.CallInstruction, held leaseSet) bool {
	if len(held) == 0 {
		return false
	}
	states, known := b.statesBefore(call)
	if !known {
		return true
	}
	for _, s := range states {
		if !slices.ContainsFunc(s, func(l *Lease) bool { return slices.Contains(held, l) }) {
			return false
		}
	}
	return true
}

// statesBefore returns the lease sets held just before instr, path by
// path; known is false when they could not be told apart.
func (b *builder) statesBefore(instr ssa.Instruction) ([]leaseSet, bool) {
	blk := instr.Block()
	if blk == nil || b.regions == nil {
		return nil, false
	}
	ps := b.pathsOf(blk.Parent(), nil)
	if ps.unknown {
		return nil, false
	}
	out := make([]leaseSet, 0, len(ps.in[blk]))
	for _, s := range ps.in[blk] {
		s = s.union(b.regions.checked[blk])
		for _, x := range blk.Instrs {
			if x == instr {
				break
			}
			s = b.transfer(x, s)
		}
		out = addState(out, s)
	}
	return out, true
}

// pathsOf computes (once per region analysis) fn's lease sets per block.
// visiting guards against a closure whose uses lead back to itself.
func (b *builder) pathsOf(fn *ssa.Function, visiting map[*ssa.Function]bool) *pathStates {
	if ps := b.regions.paths[fn]; ps != nil {
		return ps
	}
	if visiting[fn] {
		return &pathStates{unknown: true}
	}
	if visiting == nil {
		visiting = make(map[*ssa.Function]bool)
	}
	visiting[fn] = true
	defer delete(visiting, fn)
	ps := &pathStates{in: make(map[*ssa.BasicBlock][]leaseSet)}
	entry, known := b.entryStates(fn, visiting)
	if !known || len(fn.Blocks) == 0 {
		ps.unknown = !known
		b.regions.paths[fn] = ps
		return ps
	}
	ps.in[fn.Blocks[0]] = entry
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	queued := map[*ssa.BasicBlock]bool{fn.Blocks[0]: true}
	for len(work) > 0 && !ps.unknown {
		blk := work[0]
		work = work[1:]
		queued[blk] = false
		for _, s := range ps.in[blk] {
			out := b.transferBlock(blk, s.union(b.regions.checked[blk]))
			for i, succ := range blk.Succs {
				next := b.refineEdge(blk, i, out)
				before := len(ps.in[succ])
				ps.in[succ] = addState(ps.in[succ], next)
				if len(ps.in[succ]) > maxPathStates {
					ps.unknown = true
				}
				if len(ps.in[succ]) > before && !queued[succ] {
					queued[succ] = true
					work = append(work, succ)
				}
			}
		}
	}
	b.regions.paths[fn] = ps
	return ps
}

// entryStates returns the lease sets fn starts with, path by path. A
// declared function starts with its may-held entry (a lock-holding
// object's methods, a callback's lease): its callers are other paths,
// which its facts are for. A closure starts as its creator runs it.
func (b *builder) entryStates(fn *ssa.Function, visiting map[*ssa.Function]bool) ([]leaseSet, bool) {
	may := b.regions.entry[fn]
	if fn.Parent() == nil {
		return []leaseSet{may}, true
	}
	var v ssa.Value = fn
	for _, blk := range fn.Parent().Blocks {
		for _, instr := range blk.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				v = mc
			}
		}
	}
	refs := v.Referrers()
	if refs == nil || len(*refs) == 0 {
		return []leaseSet{may}, true
	}
	var states []leaseSet
	for _, ref := range *refs {
		uses, known := b.useStates(fn, v, ref, visiting)
		if !known {
			return nil, false
		}
		for _, s := range uses {
			states = addState(states, s)
		}
	}
	return states, true
}

// useStates returns the lease sets closure fn (the value v) runs with
// because of one use, ref, of v.
func (b *builder) useStates(fn *ssa.Function, v ssa.Value, ref ssa.Instruction, visiting map[*ssa.Function]bool) ([]leaseSet, bool) {
	may := []leaseSet{b.regions.entry[fn]}
	handed := b.regions.handed[handOff{ref, fn}]
	switch x := ref.(type) {
	case ssa.CallInstruction:
		if x.Common().Value != v && !slices.Contains(x.Common().Args, v) {
			return may, true
		}
	case *ssa.Store:
		if len(handed) == 0 {
			return may, true
		}
	default:
		return may, true
	}
	if ref.Block() == nil || b.pathsOf(ref.Parent(), visiting).unknown {
		return nil, false
	}
	before, known := b.statesBefore(ref)
	if !known {
		return nil, false
	}
	out := make([]leaseSet, 0, len(before))
	for _, s := range before {
		out = addState(out, s.union(handed))
	}
	return out, true
}

// addState adds s to states unless an equal set is there.
func addState(states []leaseSet, s leaseSet) []leaseSet {
	if slices.ContainsFunc(states, s.equal) {
		return states
	}
	return append(states, s)
}
