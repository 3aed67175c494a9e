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

// A compare-and-swap fences what commits with it. Harness's merge queue
// fast-forwards a branch under a redsync lock like this:
//
//	err = s.tx.WithTx(ctx, func(ctx context.Context) error {
//		s.entryStore.Delete(ctx, id)                  // (1) in the transaction
//		s.pullreqStore.Update(ctx, pr)
//		err := s.git.UpdateRefs(ctx, git.UpdateRefsParams{Refs: []git.RefUpdate{{Name: ref, Old: expected, New: merged}}})
//		if err != nil {
//			return err                                // the CAS failed: roll back
//		}
//		return nil
//	})
//	if err != nil {
//		return err
//	}
//	s.activityStore.Create(ctx, activity)            // (2) appended after the CAS
//
// A holder whose lease ran out while it was paused finds the branch moved
// by the next holder: its compare-and-swap fails and its transaction rolls
// back, so nothing it wrote in the transaction survives (1), and it never
// reaches the appends after it (2). Precisely:
//
//   - a CAS is a call that returns an error and either sends a
//     compare-and-swap request (an argument holds, through fields, slices
//     and pointers, a struct with an Old and a New field of one type: the
//     expected value and the new one), or is a transaction whose function
//     commits only after a CAS (below), or calls a function that returns
//     no nil error before a CAS succeeded (CASFact). A fenced SQL write
//     (RowsCAS: a token, version or state compared in its WHERE clause) is
//     one where its rows-affected count is compared with 0 or 1: its nil
//     error alone does not say it won, the count does, so the edge where
//     the count says a row was written is its success edge. A store
//     method that returns ErrVersionConflict when no row matched thus
//     gets a CASFact, marked SQL;
//   - the CAS is checked when its error is compared with nil, and the
//     edge where it is nil is its success edge;
//   - a transaction is a call of a function or method whose name says so
//     (it contains "Tx" or "Transaction": WithTx, RunInTx, TxOptLock,
//     Transaction) with a func literal argument that returns an error:
//     the runner commits what the literal wrote only when it returns nil;
//   - a write in such a literal is fenced by the CAS when no path from the
//     write to a return of a nil error avoids every CAS success edge, or,
//     for an SQL CAS, when no path from the literal's entry reaches the
//     write without taking one: the row the CAS won stays locked until the
//     transaction ends, so the next holder's CAS waits for it and fails,
//     and whatever this transaction wrote after the CAS commits as if the
//     next holder ran after it. A git reference is locked by no
//     transaction, so a write after git's CAS is not fenced this way;
//   - an append (an SQL INSERT with no ON CONFLICT DO UPDATE, ON DUPLICATE
//     KEY UPDATE or REPLACE: a new row, nothing overwritten) is fenced
//     when no path from the function's entry reaches it without taking a
//     CAS success edge: it records what this holder's CAS did.
//
// A write after a CAS that overwrites (an UPDATE, an upsert, a DELETE) is
// still reported: the next holder may write the same rows after the CAS.
// A transaction is told by its runner's name only, and a CAS request by
// its fields' names; a request whose Old is left zero ("any value") is
// still read as a compare-and-swap.

// fenceByCAS marks the package's unfenced writes that a checked
// compare-and-swap fences: in the same transaction, or appended after it.
func (b *builder) fenceByCAS() {
	for _, w := range b.model.Writes {
		if w.Fenced || w.LockImpl || w.Unseen != "" || w.Call == nil {
			continue
		}
		if what := b.casFencedWrite(w); what != "" {
			w.Fenced, w.FencedBy = true, what
		}
	}
}

// casFencedWrite returns the CAS that fences w, or "".
func (b *builder) casFencedWrite(w *Write) string {
	fn := w.Fn
	if what := b.rowClaimFenced(w); what != "" {
		return what + ", which this write follows in the same transaction"
	}
	if b.txClosure(fn) {
		if what, ok := b.onlyAfterCAS(fn, w.Call.Block(), w.Call, false, false); ok {
			return what + " in the same transaction"
		}
		if what, ok := b.reachedOnlyAfterCAS(fn, w.Call, true); ok {
			return what + ", which this write follows in the same transaction"
		}
	}
	if w.Append {
		if what, ok := b.reachedOnlyAfterCAS(fn, w.Call, false); ok {
			return what + ", which this write is appended after"
		}
	}
	return ""
}

// CASFact: the function returns no nil error before a compare-and-swap it
// makes (or a transaction that commits with one) succeeded.
type CASFact struct {
	What string // "Interface.UpdateRefs (a compare-and-swap request)"
	// SQL: every CAS it relies on is an SQL compare-and-set, whose row
	// stays locked until the transaction it runs in ends.
	SQL bool
	// Keyed: the function returns no nil error before a create-if-absent
	// INSERT created its row (schema.go), which gates only appends and
	// accumulating writes after it, not overwrites.
	Keyed bool
}

func (*CASFact) AFact()           {}
func (f *CASFact) String() string { return "compare-and-swap: " + f.What }

// exportCASFacts records a CASFact for each declared function of the
// package that returns an error only after a checked CAS succeeded.
func (b *builder) exportCASFacts() {
	b.exportFailsFacts()
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		if obj == nil || len(fn.Blocks) == 0 || !lastResultError(fn.Signature) {
			continue
		}
		if what, ok := b.onlyAfterCAS(fn, fn.Blocks[0], nil, true, true); ok {
			b.setLocal(obj, &CASFact{What: what, SQL: true})
		} else if what, ok := b.onlyAfterCAS(fn, fn.Blocks[0], nil, true, false); ok {
			b.setLocal(obj, &CASFact{What: what})
		}
	}
}

// casCall returns what makes call a compare-and-swap, or "".
func (b *builder) casCall(call *ssa.Call, sqlOnly bool) string {
	c := call.Common()
	if !lastResultError(c.Signature()) {
		return ""
	}
	name := ""
	if fn := calleeFunc(c); fn != nil {
		name = shortName(fn)
		var f CASFact
		if b.fact(fn, &f) && !f.Keyed && (f.SQL || !sqlOnly) {
			return name
		}
		if txRunnerName(fn.Name()) {
			for _, a := range callArgs(c) {
				if lit := funcLiteral(a); lit != nil && b.inProgress[lit] == 0 {
					if what, ok := b.onlyAfterCAS(lit, lit.Blocks[0], nil, true, sqlOnly); ok {
						return fmt.Sprintf("the transaction of %s, which commits only after %s", name, what)
					}
				}
			}
		}
	}
	for _, a := range callArgs(c) {
		if a != nil && !sqlOnly && casRequestType(a.Type(), 0) {
			if name == "" {
				name = "the call"
			}
			return name + " (a compare-and-swap request)"
		}
	}
	return ""
}

// onlyAfterCAS reports whether every path in fn from instruction from of
// blk (from nil: the block's start) to a return of a nil error takes the
// success edge of a checked CAS, and names the first CAS seen. With
// needCAS, fn must make at least one.
func (b *builder) onlyAfterCAS(fn *ssa.Function, blk *ssa.BasicBlock, from ssa.Instruction, needCAS, sqlOnly bool) (string, bool) {
	if len(fn.Blocks) == 0 || !lastResultError(fn.Signature) {
		return "", false
	}
	b.inProgress[fn]++
	defer func() { b.inProgress[fn]-- }()
	cut, what := b.casSuccessEdges(fn, sqlOnly)
	if what == "" {
		what = b.returnedCAS(fn, sqlOnly)
	}
	if needCAS && what == "" {
		return "", false
	}
	seen := make(map[*ssa.BasicBlock]bool)
	var walk func(blk *ssa.BasicBlock, start int) bool // reports a nil return reached
	walk = func(blk *ssa.BasicBlock, start int) bool {
		for _, instr := range blk.Instrs[start:] {
			if ret, ok := instr.(*ssa.Return); ok && b.mayReturnNil(ret, sqlOnly) {
				return true
			}
		}
		for i, succ := range blk.Succs {
			if cut[edge{blk, i}] || seen[succ] {
				continue
			}
			seen[succ] = true
			if walk(succ, 0) {
				return true
			}
		}
		return false
	}
	start := 0
	if from != nil {
		start = instrIndex(blk, from)
	}
	if walk(blk, start) || what == "" {
		return "", false
	}
	return what, true
}

// returnedCAS names the first CAS whose error fn returns as its own
// (return s.git.UpdateRefs(ctx, params)), or "".
func (b *builder) returnedCAS(fn *ssa.Function, sqlOnly bool) string {
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		switch x := ret.Results[len(ret.Results)-1].(type) {
		case *ssa.Call:
			if what := b.casCall(x, sqlOnly); what != "" {
				return what
			}
		case *ssa.Extract:
			if call, ok := x.Tuple.(*ssa.Call); ok && errorResult(call) == x {
				if what := b.casCall(call, sqlOnly); what != "" {
					return what
				}
			}
		}
	}
	return ""
}

// reachedOnlyAfterCAS reports whether every path from fn's entry to instr
// takes the success edge of a checked CAS, and names it.
func (b *builder) reachedOnlyAfterCAS(fn *ssa.Function, instr ssa.Instruction, sqlOnly bool) (string, bool) {
	cut, what := b.casSuccessEdges(fn, sqlOnly)
	if what == "" || len(fn.Blocks) == 0 || reachesAvoiding(fn, instr.Block(), cut) {
		return "", false
	}
	return what, true
}

// reachesAvoiding reports whether a path from fn's entry reaches target
// without taking an edge of cut.
func reachesAvoiding(fn *ssa.Function, target *ssa.BasicBlock, cut map[edge]bool) bool {
	seen := map[*ssa.BasicBlock]bool{fn.Blocks[0]: true}
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		if blk == target {
			return true
		}
		for i, succ := range blk.Succs {
			if !cut[edge{blk, i}] && !seen[succ] {
				seen[succ] = true
				work = append(work, succ)
			}
		}
	}
	return false
}

// An edge is successor Succs[i] of a block.
type edge struct {
	from *ssa.BasicBlock
	i    int
}

// casSuccessEdges returns the edges of fn where a checked CAS is known to
// have succeeded (its error compared with nil), and names the first CAS.
func (b *builder) casSuccessEdges(fn *ssa.Function, sqlOnly bool) (map[edge]bool, string) {
	cut := make(map[edge]bool)
	first := ""
	for _, w := range b.rowsCASWrites(fn) {
		edges := rowsWonEdges(w.Call)
		if len(edges) == 0 {
			continue
		}
		if first == "" {
			first = "the compare-and-set " + b.describeWrite(w)
		}
		for _, e := range edges {
			cut[e] = true
		}
	}
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			edges := nilErrorEdges(call)
			if len(edges) == 0 {
				continue
			}
			what := b.casCall(call, sqlOnly)
			if what == "" {
				continue
			}
			if first == "" {
				first = what
			}
			for _, e := range edges {
				cut[e] = true
			}
		}
	}
	return cut, first
}

// rowsCASWrites returns fn's SQL compare-and-sets (RowsCAS writes).
func (b *builder) rowsCASWrites(fn *ssa.Function) []*Write {
	var out []*Write
	for _, w := range b.model.Writes {
		if w.RowsCAS && w.Fn == fn && w.Via == "" {
			out = append(out, w)
		}
	}
	return out
}

// rowsWonEdges returns the edges taken when the rows-affected count of the
// SQL write call says it won: its result's RowsAffected() compared with 0
// or 1 (n == 0 fails, n != 0, n > 0, n >= 1 and n == 1 win).
func rowsWonEdges(call ssa.CallInstruction) []edge {
	v, ok := call.(*ssa.Call)
	if !ok {
		return nil
	}
	result := ssa.Value(v)
	if v.Call.Signature().Results().Len() > 1 {
		result = nil
		for _, ref := range referrers(v) {
			if ext, ok := ref.(*ssa.Extract); ok && ext.Index == 0 {
				result = ext
			}
		}
	}
	if result == nil {
		return nil
	}
	var edges []edge
	for _, ref := range referrers(result) {
		rc, ok := ref.(*ssa.Call)
		if !ok || rc.Call.Signature().Results().Len() == 0 || !strings.HasPrefix(calleeName(rc.Common()), "RowsAffected") {
			continue
		}
		count := ssa.Value(rc)
		if rc.Call.Signature().Results().Len() > 1 {
			count = nil
			for _, r := range referrers(rc) {
				if ext, ok := r.(*ssa.Extract); ok && ext.Index == 0 {
					count = ext
				}
			}
		}
		if count == nil {
			continue
		}
		for _, use := range referrers(count) {
			cmp, ok := use.(*ssa.BinOp)
			if !ok {
				continue
			}
			won, ok := countWonBranch(cmp, count)
			if !ok {
				continue
			}
			for _, u := range referrers(cmp) {
				if br, ok := u.(*ssa.If); ok && br.Cond == cmp {
					edges = append(edges, edge{br.Block(), won})
				}
			}
		}
	}
	return edges
}

// countWonBranch returns which branch of an if on cmp, a comparison of the
// rows-affected count with 0 or 1, is taken when a row was written: 0 for
// the true branch, 1 for the false one.
func countWonBranch(cmp *ssa.BinOp, count ssa.Value) (int, bool) {
	op, other := cmp.Op, cmp.Y
	if cmp.Y == count { // 0 == n: as n == 0, with < and > swapped
		other = cmp.X
		switch op {
		case token.LSS:
			op = token.GTR
		case token.GTR:
			op = token.LSS
		case token.LEQ:
			op = token.GEQ
		case token.GEQ:
			op = token.LEQ
		}
	}
	n, ok := constInt(other)
	if !ok {
		return 0, false
	}
	switch {
	case n == 0 && (op == token.NEQ || op == token.GTR), n == 1 && (op == token.EQL || op == token.GEQ):
		return 0, true
	case n == 0 && (op == token.EQL || op == token.LEQ), n == 1 && (op == token.NEQ || op == token.LSS):
		return 1, true
	}
	return 0, false
}

// calleeName returns the name of the function or method call calls, or "".
func calleeName(call *ssa.CallCommon) string {
	if f := calleeFunc(call); f != nil {
		return f.Name()
	}
	return ""
}

// FailsFact: the function never returns a nil error (an error wrapper
// such as return fmt.Errorf("...: %w", translate(err))), so returning
// what it returns returns an error.
type FailsFact struct {
	What string // the function, for debugging
}

func (*FailsFact) AFact()           {}
func (f *FailsFact) String() string { return "never returns a nil error: " + f.What }

// exportFailsFacts records a FailsFact for each declared function of the
// package whose every return returns an error evidently not nil.
func (b *builder) exportFailsFacts() {
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		if obj == nil || len(fn.Blocks) == 0 || !lastResultError(fn.Signature) {
			continue
		}
		if b.fact(obj, new(FailsFact)) {
			continue
		}
		fails := true
		for _, blk := range fn.Blocks {
			if ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok && !b.errNotNil(ret) {
				fails = false
				break
			}
		}
		if fails {
			b.setLocal(obj, &FailsFact{What: obj.FullName()})
		}
	}
}

// nilErrorEdges returns the edges taken when call's error result is nil:
// the branches of every if err == nil / if err != nil on it.
func nilErrorEdges(call *ssa.Call) []edge {
	errv := errorResult(call)
	if errv == nil {
		return nil
	}
	var edges []edge
	for _, ref := range errorUses(errv) {
		cmp, ok := ref.(*ssa.BinOp)
		if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) || !isNilConst(cmp.X) && !isNilConst(cmp.Y) {
			continue
		}
		for _, use := range referrers(cmp) {
			if br, ok := use.(*ssa.If); ok && br.Cond == cmp {
				i := 0 // err == nil: the true branch
				if cmp.Op == token.NEQ {
					i = 1
				}
				edges = append(edges, edge{br.Block(), i})
			}
		}
	}
	return edges
}

// errorUses returns the instructions that use the error value v, also
// through a variable it is stored in that a closure shares (err = K();
// if err != nil, with err captured): the loads that the store reaches.
func errorUses(v ssa.Value) []ssa.Instruction {
	uses := slices.Clone(referrers(v))
	for _, ref := range referrers(v) {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Val != v {
			continue
		}
		for _, use := range referrers(st.Addr) {
			if load, ok := use.(*ssa.UnOp); ok && load.Op == token.MUL && reachingStore(load, st.Addr) == st {
				uses = append(uses, referrers(load)...)
			}
		}
	}
	return uses
}

// reachingStore returns the store to addr that the load reads, found by
// walking back through its block and single predecessors; nil if unsure.
func reachingStore(load ssa.Instruction, addr ssa.Value) *ssa.Store {
	blk, end := load.Block(), instrIndex(load.Block(), load)
	for range 8 {
		for i := end - 1; i >= 0; i-- {
			switch x := blk.Instrs[i].(type) {
			case *ssa.Store:
				if x.Addr == addr {
					return x
				}
			case *ssa.Call:
				if mayStoreTo(x, addr) {
					return nil
				}
			}
		}
		if len(blk.Preds) != 1 {
			return nil
		}
		blk = blk.Preds[0]
		end = len(blk.Instrs)
	}
	return nil
}

// mayStoreTo reports whether call may store to addr: it is handed addr,
// or is dynamic, or calls a closure bound to it.
func mayStoreTo(call *ssa.Call, addr ssa.Value) bool {
	if call.Call.StaticCallee() == nil || slices.Contains(call.Call.Args, addr) {
		return true
	}
	mc, ok := call.Call.Value.(*ssa.MakeClosure)
	return ok && slices.Contains(mc.Bindings, addr)
}

// errorResult returns the value of call's last result, an error.
func errorResult(call *ssa.Call) ssa.Value {
	res := call.Common().Signature().Results()
	if res.Len() == 1 {
		return call
	}
	for _, ref := range referrers(call) {
		if ext, ok := ref.(*ssa.Extract); ok && ext.Index == res.Len()-1 {
			return ext
		}
	}
	return nil
}

// mayReturnNil reports whether ret may return a nil error that is not a
// CAS's own: any error but one evidently not nil (errNotNil) or the error
// of a CAS call, which is nil only when the CAS succeeded.
func (b *builder) mayReturnNil(ret *ssa.Return, sqlOnly bool) bool {
	if len(ret.Results) == 0 {
		return false
	}
	switch x := ret.Results[len(ret.Results)-1].(type) {
	case *ssa.Call:
		if b.casCall(x, sqlOnly) != "" {
			return false
		}
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok && errorResult(call) == x && b.casCall(call, sqlOnly) != "" {
			return false
		}
	}
	return !b.errNotNil(ret)
}

// errNotNil reports whether ret returns an error evidently not nil: one
// made there (errors.New, fmt.Errorf, an error package's New or its Wrap
// of an error found not nil, a concrete value converted to error), a package's sentinel error variable, what a function that never
// returns nil (FailsFact) returns, or an error returned on the branch
// where it was found not nil.
func (b *builder) errNotNil(ret *ssa.Return) bool {
	if len(ret.Results) == 0 {
		return false
	}
	v := ret.Results[len(ret.Results)-1]
	if stored := resultStored(v, ret); stored != nil {
		v = stored // a function with defers returns what it stored in its result
	}
	switch x := v.(type) {
	case *ssa.Const:
		return !x.IsNil()
	case *ssa.MakeInterface:
		return true
	case *ssa.UnOp:
		if _, ok := x.X.(*ssa.Global); ok && x.Op == token.MUL {
			return true
		}
	case *ssa.Call:
		if f := x.Call.StaticCallee(); f != nil && f.Pkg != nil && (f.Pkg.Pkg.Path() == "fmt" && f.Name() == "Errorf" || f.Pkg.Pkg.Path() == "errors" && f.Name() == "New") {
			return true
		}
		if f := calleeFunc(&x.Call); f != nil && !x.Call.IsInvoke() && b.fact(f, new(FailsFact)) {
			return true
		}
		if wrapsNotNil(&x.Call, ret.Block()) {
			return true
		}
	}
	return checkedNotNil(v, ret.Block())
}

// resultStored returns, when v is a load of a result variable (a function
// with defers stores what it returns there and loads it at the return), the
// value stored last before ret along its block and its single-predecessor
// chain; nil otherwise.
func resultStored(v ssa.Value, ret *ssa.Return) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	blk, end := ret.Block(), len(ret.Block().Instrs)
	for range 8 {
		for i := end - 1; i >= 0; i-- {
			if st, ok := blk.Instrs[i].(*ssa.Store); ok && st.Addr == alloc {
				return st.Val
			}
		}
		if len(blk.Preds) != 1 {
			return nil
		}
		blk = blk.Preds[0]
		end = len(blk.Instrs)
	}
	return nil
}

// wrapsNotNil reports whether call, returned in blk, makes an error that
// is not nil: an error package's New or Errorf, or its Wrap (WithStack,
// ...) of an error found not nil on the way to blk.
func wrapsNotNil(call *ssa.CallCommon, blk *ssa.BasicBlock) bool {
	f := call.StaticCallee()
	if f == nil || f.Pkg == nil {
		return false
	}
	switch errorFunc(f.Pkg.Pkg.Path(), f.Name()) {
	case alwaysError:
		return true
	case wrapsError:
		return len(call.Args) > 0 && checkedNotNil(call.Args[0], blk)
	}
	return false
}

// checkedNotNil reports whether blk is reached only through the branch of
// an if v != nil (or the else of an if v == nil).
func checkedNotNil(v ssa.Value, blk *ssa.BasicBlock) bool {
	for _, ref := range referrers(v) {
		cmp, ok := ref.(*ssa.BinOp)
		if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) || !isNilConst(cmp.X) && !isNilConst(cmp.Y) {
			continue
		}
		for _, use := range referrers(cmp) {
			br, ok := use.(*ssa.If)
			if !ok || br.Cond != cmp {
				continue
			}
			notNil := br.Block().Succs[0] // v != nil: the true branch
			if cmp.Op == token.EQL {
				notNil = br.Block().Succs[1]
			}
			if len(notNil.Preds) == 1 && notNil.Dominates(blk) {
				return true
			}
		}
	}
	return false
}

func lastResultError(sig *types.Signature) bool {
	res := sig.Results()
	return res.Len() > 0 && isErrorType(res.At(res.Len()-1).Type())
}

// instrIndex returns the index of instr in blk.
func instrIndex(blk *ssa.BasicBlock, instr ssa.Instruction) int {
	for i, x := range blk.Instrs {
		if x == instr {
			return i
		}
	}
	return 0
}

// txClosure reports whether fn is a func literal handed to a transaction
// runner.
func (b *builder) txClosure(fn *ssa.Function) bool {
	parent := fn.Parent()
	if parent == nil || !lastResultError(fn.Signature) {
		return false
	}
	for _, blk := range parent.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee := calleeFunc(call.Common())
			if callee == nil || !txRunnerName(callee.Name()) {
				continue
			}
			for _, a := range callArgs(call.Common()) {
				if funcLiteral(a) == fn {
					return true
				}
			}
		}
	}
	return false
}

// txRunnerName reports whether a function of this name runs its func
// argument in a transaction: WithTx, RunInTx, TxOptLock, Transaction.
func txRunnerName(name string) bool {
	return strings.Contains(name, "Tx") || strings.Contains(name, "Transaction")
}

// funcLiteral returns the func literal v denotes, or nil.
func funcLiteral(v ssa.Value) *ssa.Function {
	if mc, ok := v.(*ssa.MakeClosure); ok {
		v = mc.Fn
	}
	if fn, ok := v.(*ssa.Function); ok && fn.Parent() != nil {
		return fn
	}
	return nil
}

// casRequestType reports whether t holds, through struct fields, slices,
// arrays and pointers, a struct with an Old and a New field of one type.
func casRequestType(t types.Type, depth int) bool {
	if depth > 3 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return casRequestType(u.Elem(), depth+1)
	case *types.Slice:
		return casRequestType(u.Elem(), depth+1)
	case *types.Array:
		return casRequestType(u.Elem(), depth+1)
	case *types.Struct:
		var old, neu types.Type
		for f := range u.Fields() {
			switch f.Name() {
			case "Old":
				old = f.Type()
			case "New":
				neu = f.Type()
			}
		}
		if old != nil && neu != nil && types.Identical(old, neu) {
			return true
		}
		for f := range u.Fields() {
			if casRequestType(f.Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// appendsOnly reports whether st only adds rows: an INSERT whose conflict
// handling, if any, overwrites nothing.
func appendsOnly(st *sqlscan.Statement) bool {
	if st.Verb != "INSERT" || len(st.With) > 0 {
		return false
	}
	switch st.Conflict {
	case "", "DO NOTHING", "IGNORE", "NOT EXISTS":
		return true
	}
	return false
}

// referrers returns v's referrers; none for a value that keeps no list
// (a global, a function, a constant).
func referrers(v ssa.Value) []ssa.Instruction {
	if refs := v.Referrers(); refs != nil {
		return *refs
	}
	return nil
}
