package lease

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A pipeline is a slice literal of functions that a runner of the package
// calls one after another, stopping at the first error:
//
//	var scheduleSteps = []func(*downlink) error{loadSession, lockDevice, saveSession}
//	for _, step := range scheduleSteps { if err := step(d); err != nil { return err } }
//
// A step that takes a lease and returns holding it (its RoleFact says it
// acquires) leaves the lease held for the steps after it, until a step
// that releases. Such a lease is taken to guard the steps' writes to the
// store the lock lives in (the Redis state next to a SET NX lock): the
// steps' other writes often go through a handle the runner's caller passes
// in, such as a transaction that holds the rows it changes (chirpstack's
// scheduler runs its steps in one with the device rows FOR UPDATE), which
// fencelint cannot see from the steps. An element that is a call of one of the package's
// combinators (forClass(mode, lockDevice, setTX)) contributes the function
// arguments it is handed, as steps in their order.

// A pipelineStep is a function a pipeline runs, with the element of the
// slice literal it comes from.
type pipelineStep struct {
	fn  *ssa.Function
	pos token.Pos
}

// findPipelines gives each step of the package's pipelines that runs after
// a step that acquires (and before one that releases) that lease on entry.
func (b *builder) findPipelines() {
	run := b.pipelineRuns()
	if len(run) == 0 {
		return
	}
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				alloc, ok := instr.(*ssa.Alloc)
				if !ok || !isFuncArray(alloc.Type()) {
					continue
				}
				name, ok := pipelineName(alloc, run)
				if !ok {
					continue
				}
				steps := b.pipelineSteps(alloc)
				if b.steps == nil {
					b.steps = make(map[*ssa.Function]int)
				}
				id := len(b.steps) + 1
				for _, s := range steps {
					if _, ok := b.steps[s.fn]; !ok {
						b.steps[s.fn] = id
					}
				}
				b.holdAcrossSteps(name, steps)
			}
		}
	}
}

// holdAcrossSteps opens, for each step that acquires, a lease held on entry
// to the steps after it until one releases.
func (b *builder) holdAcrossSteps(name string, steps []pipelineStep) {
	var held *Lease
	for _, s := range steps {
		if held != nil {
			b.regions.entry[s.fn] = b.regions.entry[s.fn].with(held)
		}
		role, system := b.stepRole(s.fn)
		switch {
		case role&(RoleAcquire|RoleTryAcquire) != 0:
			held = b.addLease(&Lease{Kind: InCallback, System: system, Pos: s.pos, Fn: s.fn, OwnStore: true,
				What: fmt.Sprintf("the %s that %s takes, an earlier step of %s", lockNoun(system), stepName(s.fn), name)})
		case role.Has(RoleRelease):
			held = nil
		}
	}
}

// lockNoun names a system's lock: "Redis lock", or "lease" when unknown.
func lockNoun(system System) string {
	if system == "" {
		return "lease"
	}
	return string(system) + " lock"
}

// stepRole returns the lock role a step plays by itself.
func (b *builder) stepRole(fn *ssa.Function) (Role, System) {
	if fn.Parent() != nil {
		return b.closureRoles[fn].role, b.closureRoles[fn].system
	}
	if obj := declaredFunc(fn); obj != nil {
		if f := b.roleFact(obj); f != nil {
			return f.Role, f.System
		}
	}
	return 0, ""
}

// stepName names a step in diagnostics.
func stepName(fn *ssa.Function) string {
	if obj := declaredFunc(fn); obj != nil && receiverName(obj) != "" {
		return shortName(obj)
	}
	if fn.Parent() == nil {
		return fn.Name()
	}
	return "a function literal"
}

// pipelineSteps returns the steps of the slice literal whose backing array
// is alloc, in order, with the combinators' function arguments in place of
// the combinator.
func (b *builder) pipelineSteps(alloc *ssa.Alloc) []pipelineStep {
	var steps []pipelineStep
	for _, st := range elementStores(alloc) {
		if fn := funcValue(st.Val); fn != nil {
			steps = append(steps, pipelineStep{fn, st.Pos()})
			continue
		}
		call, ok := unwrap(st.Val).(*ssa.Call)
		if !ok || !b.isCombinator(call.Common()) {
			continue
		}
		for _, a := range callArgs(call.Common()) {
			if fn := funcValue(a); fn != nil {
				steps = append(steps, pipelineStep{fn, st.Pos()})
				continue
			}
			elems, _ := variadic(a)
			for _, e := range elems {
				if fn := funcValue(e); fn != nil {
					steps = append(steps, pipelineStep{fn, st.Pos()})
				}
			}
		}
	}
	return steps
}

// isCombinator reports whether call invokes a function of this package
// that returns a function (forClass(mode, steps...) returning a step).
func (b *builder) isCombinator(c *ssa.CallCommon) bool {
	f := c.StaticCallee()
	if f == nil || f.Pkg == nil || f.Pkg.Pkg != b.pass.Pkg {
		return false
	}
	res := f.Signature.Results()
	if res.Len() != 1 {
		return false
	}
	_, ok := res.At(0).Type().Underlying().(*types.Signature)
	return ok
}

// elementStores returns the stores into the elements of an array
// allocation, in index order.
func elementStores(alloc *ssa.Alloc) []*ssa.Store {
	byIndex := make(map[int64]*ssa.Store)
	var n int64
	for _, ref := range *alloc.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		i, ok := constInt(ia.Index)
		if !ok || i < 0 || i > 1<<10 {
			continue
		}
		for _, r := range *ia.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == ia {
				byIndex[i] = st
				n = max(n, i+1)
			}
		}
	}
	var out []*ssa.Store
	for i := range n {
		if st := byIndex[i]; st != nil {
			out = append(out, st)
		}
	}
	return out
}

// isFuncArray reports whether t is a pointer to an array of functions.
func isFuncArray(t types.Type) bool {
	ptr, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	arr, ok := ptr.Elem().Underlying().(*types.Array)
	if !ok {
		return false
	}
	_, ok = arr.Elem().Underlying().(*types.Signature)
	return ok
}

// pipelineRuns returns the slices of functions that the package runs step
// by step: a call of an element loaded from the slice (for _, step :=
// range steps { step(d) }). Each is keyed by the package-level variable
// that holds it or, for a local slice literal, by its backing array.
func (b *builder) pipelineRuns() map[ssa.Value]bool {
	runs := make(map[ssa.Value]bool)
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || call.Call.IsInvoke() {
					continue
				}
				load, ok := call.Call.Value.(*ssa.UnOp)
				if !ok || load.Op != token.MUL {
					continue
				}
				ia, ok := load.X.(*ssa.IndexAddr)
				if !ok {
					continue
				}
				if s := sliceSource(ia.X); s != nil {
					runs[s] = true
				}
			}
		}
	}
	return runs
}

// sliceSource returns what a slice value ranged over comes from: the
// package-level variable it is loaded from, or the array a local slice
// literal slices.
func sliceSource(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.UnOp:
		if g, ok := x.X.(*ssa.Global); ok && x.Op == token.MUL {
			return g
		}
	case *ssa.Slice:
		if a, ok := x.X.(*ssa.Alloc); ok {
			return a
		}
	}
	return nil
}

// pipelineName returns how the slice literal backed by alloc is named in
// diagnostics, if it is run step by step: the variable it is stored in, or
// "the steps of F" for a local literal.
func pipelineName(alloc *ssa.Alloc, runs map[ssa.Value]bool) (string, bool) {
	if runs[alloc] {
		return "the steps run by " + alloc.Parent().Name(), true
	}
	for _, ref := range *alloc.Referrers() {
		s, ok := ref.(*ssa.Slice)
		if !ok {
			continue
		}
		for _, r := range *s.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Val == s {
				if g, ok := st.Addr.(*ssa.Global); ok && runs[g] {
					return g.Name(), true
				}
			}
		}
	}
	return "", false
}
