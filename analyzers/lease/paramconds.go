package lease

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Writes that only some parameter values reach.
//
// A helper often takes a flag that picks its path. It may repair a record
// only when `fix` is true, delete a status only when `ttl < 0`, or take a
// counter only when `processing != nil`. A caller that passes a constant
// which rules that path out does not make that write. So a WritesFact
// lists its unfenced writes as WriteCases. Each case carries what the
// function's parameters must be to reach the write: the branches on
// parameters that dominate it (`if fix {`, `if ttl < 0 { ...; return }`,
// `if !p { return }`). A closure's branch on a captured parameter counts
// too, since the captured value is the parameter's and never changes.
//
// A call first drops the cases that its constant arguments refute. If none
// is left, the call is no write. Otherwise it names the first case left.
// A condition whose argument is the caller's own parameter becomes the
// caller's condition. So does one whose argument is a phi, when the phi's
// edges that do not refute it all lie under a branch on a parameter
// (`if !decr { processing = nil }`).
//
// The conditions are only necessary ones: a case keeps fewer of them than
// the code has (a branch on anything but a parameter and a constant is not
// recorded). Dropping a condition can only keep a case that a finer
// reading would drop, so the rule stays sound.

// A ParamCond says what one parameter must be for a write to be reached:
// Param Op Value.
type ParamCond struct {
	Param int           // 0-based, receiver excluded
	Op    token.Token   // EQL, NEQ, LSS, LEQ, GTR or GEQ
	Kind  constant.Kind // Bool, Int or String; Unknown for nil
	Value string        // the constant's ExactString; "" for nil
}

// A WriteCase is one of the unfenced writes a WritesFact stands for, with
// what the function's parameters must be for a call to reach it.
type WriteCase struct {
	System   System
	What     string
	Dispatch Dispatch
	Needs    []ParamCond // every one holds where the write is made
}

// maxWriteCases bounds the cases a fact keeps. The case at the bound is
// kept unconditional, which is sound.
const maxWriteCases = 8

// unfencedCase reports whether w is one of the plain unfenced writes a
// function's WritesFact names (setWriteFact's unfenced): made on every call,
// on some path where the function holds no lease of its own (heldOwn), not
// in a goroutine that takes a lease itself, seen whole and not fenced.
func (b *builder) unfencedCase(w *Write) bool {
	return w.once == oncePerCall && !w.heldOwn && !w.LockImpl && !w.Fenced && w.Unseen == "" &&
		len(w.Converge) == 0 && b.goroutineLock(w.Fn) == ""
}

// writeCases returns the WriteCases of a function's WritesFact, from its
// writes in order. It returns nil when the first case needs nothing:
// every call then reaches the write the fact's What names.
func (b *builder) writeCases(writes []*Write) []WriteCase {
	var out []WriteCase
	for _, w := range writes {
		if !b.unfencedCase(w) {
			continue
		}
		reach := b.writeReach(w)
		alts := w.cases
		if alts == nil {
			alts = []WriteCase{{System: w.System, What: b.describeWrite(w), Dispatch: w.Dispatch}}
		} else {
			alts = viaCases(alts, w.What)
		}
		for _, c := range alts {
			c.Needs = unionConds(c.Needs, reach)
			out = append(out, c)
			if len(c.Needs) == 0 {
				return boundCases(out)
			}
		}
	}
	return boundCases(out)
}

// boundCases trims cases to maxWriteCases (the last one kept made
// unconditional), or returns nil when the first needs nothing.
func boundCases(cases []WriteCase) []WriteCase {
	if len(cases) == 0 || len(cases[0].Needs) == 0 {
		return nil
	}
	if len(cases) > maxWriteCases {
		cases = cases[:maxWriteCases]
		cases[maxWriteCases-1].Needs = nil
	}
	return cases
}

// viaCases returns cases as a caller sees them through the function (or
// implementation) named via, in a new slice: facts are shared.
func viaCases(cases []WriteCase, via string) []WriteCase {
	if cases == nil {
		return nil
	}
	out := make([]WriteCase, len(cases))
	for i, c := range cases {
		c.What += ", via " + via
		out[i] = c
	}
	return out
}

// bindCases returns the cases of a call's callee that the call can reach,
// with their conditions restated on the caller's parameters (as
// outermost(fn)'s). It reports false when the call's constant arguments
// rule every case out, and whether they meet every condition of the first
// case it keeps (met). With no cases it returns nil, true, true.
func bindCases(fn *ssa.Function, call ssa.CallInstruction, cases []WriteCase) (out []WriteCase, ok, firstMet bool) {
	if cases == nil {
		return nil, true, true
	}
	for _, c := range cases {
		var needs []ParamCond
		refuted, met := false, true
		for _, cond := range c.Needs {
			bound, ok, byConst := bindCond(fn, call, cond)
			if !ok {
				refuted = true
				break
			}
			needs = unionConds(needs, bound)
			met = met && byConst
		}
		if !refuted {
			if len(out) == 0 {
				firstMet = met
			}
			c.Needs = needs
			out = append(out, c)
		}
	}
	return out, len(out) > 0, firstMet
}

// bindCond restates cond, on the callee's parameter, as the conditions on
// fn's parameters that the call's argument for it implies. It reports
// false when the argument is a constant that makes cond false, or a phi
// whose every edge is one, and whether it is a constant that makes cond
// true (met): an argument it cannot read leaves cond open, not met.
func bindCond(fn *ssa.Function, call ssa.CallInstruction, cond ParamCond) (conds []ParamCond, ok, met bool) {
	a := arg(call.Common(), cond.Param)
	if a == nil {
		return nil, true, false
	}
	switch a := a.(type) {
	case *ssa.Const:
		holds, known := condHolds(cond, a)
		return nil, holds || !known, holds && known
	case *ssa.Phi:
		conds, ok := phiConds(fn, a, cond)
		return conds, ok, false
	}
	if i := outerParam(fn, a); i >= 0 {
		cond.Param = i
		return []ParamCond{cond}, true, false
	}
	return nil, true, false
}

// phiConds returns the conditions on fn's parameters that every edge of phi
// able to satisfy cond (on phi's value) lies under, or false when no edge
// can.
func phiConds(fn *ssa.Function, phi *ssa.Phi, cond ParamCond) ([]ParamCond, bool) {
	var common []ParamCond
	viable := false
	for i, e := range phi.Edges {
		var conds []ParamCond
		if k, ok := e.(*ssa.Const); ok {
			if holds, known := condHolds(cond, k); known && !holds {
				continue
			}
		} else if j := outerParam(fn, e); j >= 0 {
			c := cond
			c.Param = j
			conds = append(conds, c)
		}
		pred := phi.Block().Preds[i]
		conds = unionConds(conds, blockReach(fn, pred))
		conds = unionConds(conds, edgeConds(fn, pred, phi.Block()))
		if !viable {
			common, viable = conds, true
			continue
		}
		common = slices.DeleteFunc(slices.Clone(common), func(c ParamCond) bool { return !slices.Contains(conds, c) })
	}
	return common, viable
}

// writeReach returns the conditions on its outermost function's
// parameters under which w's call is reached.
func (b *builder) writeReach(w *Write) []ParamCond {
	if w.Call == nil || w.Call.Block() == nil {
		return nil
	}
	return blockReach(w.Fn, w.Call.Block())
}

// blockReach returns the conditions on the parameters of outermost(fn)
// that hold wherever blk runs: those of the branches whose one edge leads
// into a block that dominates blk.
func blockReach(fn *ssa.Function, blk *ssa.BasicBlock) []ParamCond {
	var out []ParamCond
	for s := blk; s != nil; s = s.Idom() {
		if len(s.Preds) == 1 {
			out = unionConds(out, edgeConds(fn, s.Preds[0], s))
		}
	}
	return out
}

// edgeConds returns the conditions the edge from pred to succ implies:
// those of pred's if, when pred ends in one whose branches differ.
func edgeConds(fn *ssa.Function, pred, succ *ssa.BasicBlock) []ParamCond {
	if len(pred.Instrs) == 0 || len(pred.Succs) != 2 || pred.Succs[0] == pred.Succs[1] {
		return nil
	}
	ifi, ok := pred.Instrs[len(pred.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	return branchConds(fn, ifi.Cond, pred.Succs[0] == succ)
}

// branchConds returns what v being dir says of fn's parameters: p, !p,
// p == nil, ttl < 0, mode == "dry", with the constant on either side.
func branchConds(fn *ssa.Function, v ssa.Value, dir bool) []ParamCond {
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.NOT {
			return branchConds(fn, x.X, !dir)
		}
	case *ssa.BinOp:
		op := x.Op
		if _, ok := comparisonNegation[op]; !ok {
			return nil
		}
		p, c := x.X, x.Y
		if _, ok := p.(*ssa.Const); ok {
			p, c, op = x.Y, x.X, comparisonMirror[op]
		}
		k, ok := c.(*ssa.Const)
		i := outerParam(fn, p)
		if !ok || i < 0 {
			return nil
		}
		kind, value, ok := constKey(k)
		if !ok || (kind == constant.Unknown && op != token.EQL && op != token.NEQ) {
			return nil
		}
		if !dir {
			op = comparisonNegation[op]
		}
		return []ParamCond{{Param: i, Op: op, Kind: kind, Value: value}}
	}
	if b, ok := v.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return nil
	}
	if i := outerParam(fn, v); i >= 0 {
		return []ParamCond{{Param: i, Op: token.EQL, Kind: constant.Bool, Value: strconv.FormatBool(dir)}}
	}
	return nil
}

var comparisonNegation = map[token.Token]token.Token{
	token.EQL: token.NEQ, token.NEQ: token.EQL,
	token.LSS: token.GEQ, token.GEQ: token.LSS,
	token.GTR: token.LEQ, token.LEQ: token.GTR,
}

// comparisonMirror gives the operator that compares the same way with its
// operands swapped (0 < p is p > 0).
var comparisonMirror = map[token.Token]token.Token{
	token.EQL: token.EQL, token.NEQ: token.NEQ,
	token.LSS: token.GTR, token.GTR: token.LSS,
	token.LEQ: token.GEQ, token.GEQ: token.LEQ,
}

// constKey returns how a ParamCond spells the constant k: a bool, integer
// or string, or nil.
func constKey(k *ssa.Const) (constant.Kind, string, bool) {
	if k.Value == nil {
		return constant.Unknown, "", k.IsNil()
	}
	switch kind := k.Value.Kind(); kind {
	case constant.Bool, constant.Int, constant.String:
		return kind, k.Value.ExactString(), true
	}
	return 0, "", false
}

// condHolds reports whether cond holds for the constant argument k, and
// whether that is known (the constant is of cond's kind).
func condHolds(cond ParamCond, k *ssa.Const) (holds, known bool) {
	if cond.Kind == constant.Unknown {
		if !k.IsNil() {
			return false, false
		}
		return cond.Op == token.EQL, true
	}
	if k.Value == nil || k.Value.Kind() != cond.Kind {
		return false, false
	}
	want, ok := condValue(cond)
	if !ok {
		return false, false
	}
	return constant.Compare(k.Value, cond.Op, want), true
}

// condValue reads back the constant cond.Value spells.
func condValue(cond ParamCond) (constant.Value, bool) {
	switch cond.Kind {
	case constant.Bool:
		return constant.MakeBool(cond.Value == "true"), true
	case constant.Int:
		digits, negative := strings.CutPrefix(cond.Value, "-")
		v := constant.MakeFromLiteral(digits, token.INT, 0)
		if v.Kind() != constant.Int {
			return nil, false
		}
		if negative {
			v = constant.UnaryOp(token.SUB, v, 0)
		}
		return v, true
	case constant.String:
		v := constant.MakeFromLiteral(cond.Value, token.STRING, 0)
		return v, v.Kind() == constant.String
	}
	return nil, false
}

// outerParam returns the index (receiver excluded) of the parameter of
// outermost(fn) that v is, directly, as a closure's captured value, or
// loaded from the variable a captured parameter lives in when nothing
// else stores to it; or -1.
func outerParam(fn *ssa.Function, v ssa.Value) int {
	v = boundTo(v)
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if alloc, ok := boundTo(ld.X).(*ssa.Alloc); ok {
			if p := spilledParam(alloc); p != nil {
				v = p
			}
		}
	}
	p, ok := v.(*ssa.Parameter)
	top := outermost(fn)
	if !ok || p.Parent() != top {
		return -1
	}
	i := slices.Index(top.Params, p)
	if top.Signature.Recv() != nil {
		i--
	}
	return i
}

// spilledParam returns the parameter that alloc, the variable of a
// parameter some closure captures, holds: stored once, in the entry block,
// and only read after that, by the function and by the closures it is
// captured by; or nil.
func spilledParam(alloc *ssa.Alloc) *ssa.Parameter {
	var param *ssa.Parameter
	ok := onlyRead(alloc, func(st *ssa.Store) bool {
		p, isParam := st.Val.(*ssa.Parameter)
		if !isParam || param != nil || p.Parent() != alloc.Parent() || !firstUse(st, alloc) {
			return false
		}
		param = p
		return true
	})
	if !ok {
		return nil
	}
	return param
}

// onlyRead reports whether the variable addr (an Alloc or a free variable
// bound to one) is only loaded, captured by closures that only load it,
// and stored by the stores that store accepts.
func onlyRead(addr ssa.Value, store func(*ssa.Store) bool) bool {
	refs := addr.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Addr != addr || !store(r) {
				return false
			}
		case *ssa.MakeClosure:
			f, ok := r.Fn.(*ssa.Function)
			if !ok {
				return false
			}
			for i, bound := range r.Bindings {
				if bound == addr && (i >= len(f.FreeVars) || !onlyRead(f.FreeVars[i], noStore)) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

func noStore(*ssa.Store) bool { return false }

// firstUse reports whether st, in the entry block, comes before every
// other use of addr there (uses elsewhere come after it): nothing reads
// the variable's zero value.
func firstUse(st *ssa.Store, addr ssa.Value) bool {
	entry := st.Parent().Blocks[0]
	if st.Block() != entry {
		return false
	}
	for _, instr := range entry.Instrs {
		if instr == st {
			return true
		}
		if refersTo(instr, addr) {
			return false
		}
	}
	return false
}

// refersTo reports whether instr uses v.
func refersTo(instr ssa.Instruction, v ssa.Value) bool {
	for _, op := range instr.Operands(nil) {
		if op != nil && *op == v {
			return true
		}
	}
	return false
}

// unionConds returns x with the conditions of y it lacks, in a new slice
// when it adds any.
func unionConds(x, y []ParamCond) []ParamCond {
	for _, c := range y {
		if !slices.Contains(x, c) {
			x = append(slices.Clip(x), c)
		}
	}
	return x
}

// sameCases reports whether two facts' cases are the same.
func sameCases(x, y []WriteCase) bool {
	return slices.EqualFunc(x, y, func(a, b WriteCase) bool {
		return a.System == b.System && a.What == b.What && a.Dispatch == b.Dispatch && slices.Equal(a.Needs, b.Needs)
	})
}

// reachCases narrows w, a call's write read from its callee's WritesFact,
// to the callee's cases the call can reach, naming the first. It reports
// false when the call reaches none.
func (w *Write) reachCases(cases []WriteCase) bool {
	bound, ok, met := bindCases(w.Fn, w.Call, cases)
	if !ok {
		return false
	}
	w.cases, w.casesMet = bound, met
	if bound != nil {
		first := bound[0]
		if first.System != w.System {
			w.Advice = first.System.FenceAdvice()
		}
		w.System, w.Via, w.Dispatch = first.System, first.What, first.Dispatch
	}
	return true
}

// refreshCases reads again the cases of the calls recorded as writes
// whose callee's WritesFact had cases: the callee's fact may have grown
// since (a helper of the package whose own callees gained facts), and a
// case it added must not be missed. A call that now reaches none keeps
// what it had.
func (b *builder) refreshCases() {
	for _, w := range b.model.Writes {
		if w.cases == nil || w.Call == nil {
			continue
		}
		obj := calleeFunc(w.Call.Common())
		var wf WritesFact
		if obj == nil || !b.callFact(w.Call.Common(), obj, &wf) {
			continue
		}
		if _, ok, _ := bindCases(w.Fn, w.Call, wf.Cases); !ok {
			continue
		}
		if wf.System != w.System {
			w.Advice = wf.System.FenceAdvice()
		}
		w.System, w.Via, w.Dispatch = wf.System, wf.What, wf.Dispatch
		w.reachCases(wf.Cases)
	}
}
