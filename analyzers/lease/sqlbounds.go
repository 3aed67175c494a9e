package lease

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// A bounded decrement takes an amount from a column only where the row
// still holds that much, in one statement:
//
//	UPDATE inventory SET stocks = stocks - ? WHERE goods = ? AND stocks >= ?
//
// with the same amount bound to both placeholders (GORM's
// Where("stocks >= ?", n).UpdateColumn("stocks", gorm.Expr("stocks - ?", n))).
// A lock around one usually guards the check that precedes it (read the
// stock, refuse if short, take), which the WHERE clause repeats where the
// store applies it; and decrements commute, so one that lands late takes
// what it takes from whatever the next holder left, overwriting nothing.
// A stale holder's decrement is harmless when it is one the holder would
// make whatever the store said, bar that bound: when its lease region
// decides to reach it (every branch between the acquire and the write)
// and computes its amount only from the caller's inputs (parameters,
// constants), the lock's own calls, the write's own result, and the bound
// itself (a read row's field named as the column, compared with the
// amount, and that read's error). A decrement reached only after a read of
// other state under the lock (an order's status: "not yet paid") is still
// reported: a stale holder acts on what it read, and takes twice. So is an
// unbounded decrement (stocks = stocks - ?), as an increment is: run again
// by a stale holder, it counts twice.

// A boundedDecrement is an unfenced write that is a bounded decrement of
// column by amount, the Go value subtracted in the write's function.
type boundedDecrement struct {
	column string
	amount ssa.Value
}

// decrementBound returns the bounded decrement st is, or nil: one column
// decremented by a value that its floor in the WHERE clause is bound to
// as well.
func decrementBound(st *sqlscan.Statement, text sqlText, args []ssa.Value, argsKnown bool) *boundedDecrement {
	if len(st.Bounds) != 1 {
		return nil
	}
	bd := st.Bounds[0]
	amount, floor := boundValue(bd.Amount, text, args, argsKnown), boundValue(bd.Floor, text, args, argsKnown)
	if amount == nil || floor == nil || isConst(amount) || !sameValue(stripConvert(amount), stripConvert(floor), 0) {
		return nil
	}
	return &boundedDecrement{column: bd.Column, amount: amount}
}

// boundOfAll returns the column and the parameter of fn (receiver
// excluded) by which every unfenced write among writes that a caller's
// lease could guard is a bounded decrement; "" if one is not.
func boundOfAll(fn *ssa.Function, writes []*Write) (string, int) {
	column, param := "", -1
	for _, w := range writes {
		if w.heldOwn || w.LockImpl || w.Fenced {
			continue
		}
		if w.bound == nil {
			return "", 0
		}
		i, field := tokenParamField(fn, stripConvert(w.bound.amount))
		if i < 0 || field != "" || column != "" && (!strings.EqualFold(column, w.bound.column) || i != param) {
			return "", 0
		}
		column, param = w.bound.column, i
	}
	if column == "" {
		return "", 0
	}
	return column, param
}

// fenceBoundedDecrements marks fenced the bounded decrements made under
// leases of their own function that decide to make them only from what
// the caller passed and the bound itself.
func (b *builder) fenceBoundedDecrements() {
	for _, w := range b.model.Writes {
		if w.Fenced || w.bound == nil || w.Call == nil || !w.heldOwn || len(w.Held) == 0 {
			continue
		}
		if b.decidedByBound(w) {
			w.Fenced = true
			w.FencedBy = "a bounded decrement (" + w.bound.column + " = " + w.bound.column + " - n WHERE " +
				w.bound.column + " >= n) that its lease region decides on only from its inputs and that bound"
		}
	}
}

// decidedByBound reports whether every lease held at the bounded decrement
// w was acquired in w's function, and every branch between the acquire and
// w, and the amount, depend only on what boundInputs allows.
func (b *builder) decidedByBound(w *Write) bool {
	for _, l := range w.Held {
		if l.Fn != w.Fn || l.Call == nil {
			return false // decided, in part, where fencelint does not look
		}
		d := &boundInputs{b: b, w: w, reads: make(map[ssa.Value]bool)}
		conds := regionConds(l.Call.Block(), w.Call.Block())
		for _, c := range conds {
			d.noteBoundRead(c)
		}
		if !d.fromInputs(w.bound.amount) {
			return false
		}
		for _, c := range conds {
			if !d.isBoundCheck(c) && !d.fromInputs(c) {
				return false
			}
		}
	}
	return true
}

// regionConds returns the conditions of the branches in blocks reachable
// from start that can reach end (end's own included: in a loop, it
// decides the next round).
func regionConds(start, end *ssa.BasicBlock) []ssa.Value {
	reaches := make(map[*ssa.BasicBlock]bool)
	stack := []*ssa.BasicBlock{end}
	for len(stack) > 0 {
		blk := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reaches[blk] {
			continue
		}
		reaches[blk] = true
		stack = append(stack, blk.Preds...)
	}
	var conds []ssa.Value
	seen := make(map[*ssa.BasicBlock]bool)
	stack = []*ssa.BasicBlock{start}
	for len(stack) > 0 {
		blk := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[blk] || !reaches[blk] {
			continue
		}
		seen[blk] = true
		if iff, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If); ok {
			conds = append(conds, iff.Cond)
		}
		stack = append(stack, blk.Succs...)
	}
	return conds
}

// boundInputs judges what a bounded decrement's decision depends on.
type boundInputs struct {
	b     *builder
	w     *Write
	reads map[ssa.Value]bool // calls whose result's bounded column is compared with the amount
	seen  map[ssa.Value]bool // the values one fromInputs has visited
}

// noteBoundRead records the read whose row a check of the bound compares.
func (d *boundInputs) noteBoundRead(cond ssa.Value) {
	if read := d.boundCheckRead(cond); read != nil {
		d.reads[read] = true
	}
}

// isBoundCheck reports whether cond checks the bound: compares the amount
// with a read row's field named as the bounded column.
func (d *boundInputs) isBoundCheck(cond ssa.Value) bool { return d.boundCheckRead(cond) != nil }

// boundCheckRead returns the call that read the row whose bounded field
// cond compares with the amount (amount > row.Stocks, or negated), or nil.
func (d *boundInputs) boundCheckRead(cond ssa.Value) ssa.Value {
	if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
		cond = not.X
	}
	cmp, ok := cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.LSS && cmp.Op != token.LEQ && cmp.Op != token.GTR && cmp.Op != token.GEQ {
		return nil
	}
	amount := stripConvert(d.w.bound.amount)
	for _, pair := range [][2]ssa.Value{{cmp.X, cmp.Y}, {cmp.Y, cmp.X}} {
		if !sameValue(stripConvert(pair[1]), amount, 0) {
			continue
		}
		if read := d.fieldRead(stripConvert(pair[0])); read != nil {
			return read
		}
	}
	return nil
}

// fieldRead returns the call whose result v is the bounded column's field
// of (row.Stocks for column stocks; row.InStock for in_stock), or nil.
func (d *boundInputs) fieldRead(v ssa.Value) ssa.Value {
	var base ssa.Value
	var name string
	switch x := v.(type) {
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		if !ok || x.Op != token.MUL {
			return nil
		}
		base, name = fa.X, fieldName(fa.X.Type(), fa.Field)
	case *ssa.Field:
		base, name = x.X, fieldName(x.X.Type(), x.Field)
	default:
		return nil
	}
	if !sameColumn(name, d.w.bound.column) {
		return nil
	}
	if ext, ok := base.(*ssa.Extract); ok {
		base = ext.Tuple
	}
	switch x := base.(type) {
	case *ssa.Call:
		return x
	case *ssa.Alloc:
		return fillingCall(x)
	}
	return nil
}

// fillingCall returns the one call that local is handed to (directly or
// as an interface: GORM's First(&row), Scan(&row)), the read that fills
// it; nil if it goes to none, to several or anywhere else but its field
// loads.
func fillingCall(local *ssa.Alloc) *ssa.Call {
	var fill *ssa.Call
	take := func(ref ssa.Instruction) bool {
		call, ok := ref.(*ssa.Call)
		if !ok || fill != nil {
			return false
		}
		fill = call
		return true
	}
	for _, ref := range *local.Referrers() {
		switch r := ref.(type) {
		case *ssa.FieldAddr, *ssa.DebugRef:
		case *ssa.MakeInterface:
			for _, use := range *r.Referrers() {
				if !take(use) {
					return nil
				}
			}
		default:
			if !take(r) {
				return nil
			}
		}
	}
	return fill
}

// readError reports whether v is the error of a read of the bound: its
// error result, or the Error field of the *gorm.DB it returns.
func (d *boundInputs) readError(v ssa.Value) bool {
	if !types.Identical(v.Type(), errorType) {
		return false
	}
	switch x := v.(type) {
	case *ssa.Extract:
		return d.reads[x.Tuple]
	case *ssa.Call:
		return d.reads[x]
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		return ok && x.Op == token.MUL && d.reads[fa.X]
	}
	return false
}

var errorType = types.Universe.Lookup("error").Type()

// sameColumn reports whether a Go field name and a column name match as
// ORMs map them (Stocks and stocks, InStock and in_stock).
func sameColumn(field, column string) bool {
	return strings.EqualFold(field, strings.ReplaceAll(column, "_", ""))
}

// fromInputs reports whether v depends only on the caller's inputs and
// constants, the lock's own calls, the write's result, and the error of a
// read of the bound.
func (d *boundInputs) fromInputs(v ssa.Value) bool {
	d.seen = make(map[ssa.Value]bool)
	return d.allowed(v)
}

// allowed is fromInputs for a value met on the way: every value v depends
// on must be allowed, so one met again (a loop's phi) adds nothing.
func (d *boundInputs) allowed(v ssa.Value) bool {
	if d.seen[v] {
		return true
	}
	d.seen[v] = true
	if d.readError(v) {
		return true // the read of the bound failed
	}
	switch x := v.(type) {
	case *ssa.Const, *ssa.Function:
		return true
	case *ssa.Parameter:
		return true
	case *ssa.Call:
		return d.allowedCall(x)
	case *ssa.Extract:
		return d.allowed(x.Tuple)
	case *ssa.UnOp:
		switch x.Op {
		case token.MUL:
			return d.allowedAddr(x.X)
		case token.ARROW:
			return false // a message: what another goroutine read
		}
		return d.allowed(x.X)
	case *ssa.BinOp:
		return d.allowed(x.X) && d.allowed(x.Y)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !d.allowed(e) {
				return false
			}
		}
		return true
	case *ssa.Convert:
		return d.allowed(x.X)
	case *ssa.ChangeType:
		return d.allowed(x.X)
	case *ssa.MakeInterface:
		return d.allowed(x.X)
	case *ssa.ChangeInterface:
		return d.allowed(x.X)
	case *ssa.TypeAssert:
		return d.allowed(x.X)
	case *ssa.Field:
		return d.allowed(x.X)
	case *ssa.Index:
		return d.allowed(x.X) && d.allowed(x.Index)
	case *ssa.Slice:
		return d.allowed(x.X)
	case *ssa.Range:
		return d.allowed(x.X)
	case *ssa.Next:
		return d.allowed(x.Iter)
	case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Alloc:
		return d.allowedAddr(x)
	}
	return false // a global, a captured variable, a map (a cache of what was read), anything else
}

// allowedCall reports whether a call's result is allowed: a builtin's over
// allowed arguments, the write itself, or a lock operation.
func (d *boundInputs) allowedCall(call *ssa.Call) bool {
	if call == d.w.Call {
		return true
	}
	if bi, ok := call.Call.Value.(*ssa.Builtin); ok && (bi.Name() == "len" || bi.Name() == "cap") {
		return d.allowed(call.Call.Args[0])
	}
	c, ok := d.b.resolve(call.Common())
	return ok && c.role&(RoleAcquire|RoleTryAcquire|RoleRelease|RoleRenew) != 0
}

// allowedAddr reports whether what is loaded from addr is allowed: an
// element or field of an allowed value, or a local every store into which
// is allowed (and that nothing else can write through).
func (d *boundInputs) allowedAddr(addr ssa.Value) bool {
	switch x := addr.(type) {
	case *ssa.FieldAddr:
		return d.allowedAddr(x.X)
	case *ssa.IndexAddr:
		return d.allowedAddr(x.X) && d.allowed(x.Index)
	case *ssa.Alloc:
		return d.allowedStores(x)
	}
	return d.allowed(addr)
}

// allowedStores reports whether every value stored into the local alloc,
// whole or by field or element, is allowed, and alloc's address goes
// nowhere else.
func (d *boundInputs) allowedStores(alloc ssa.Value) bool {
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != alloc || !d.allowed(r.Val) {
				return false
			}
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.FieldAddr:
			if !d.allowedStores(r) {
				return false
			}
		case *ssa.IndexAddr:
			if !d.allowedStores(r) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// stripConvert returns v without the conversions and interface wrapping
// around it (int(n), any(n)).
func stripConvert(v ssa.Value) ssa.Value {
	for {
		v = unwrap(v)
		c, ok := v.(*ssa.Convert)
		if !ok {
			return v
		}
		v = c.X
	}
}
