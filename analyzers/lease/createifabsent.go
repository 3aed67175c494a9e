package lease

import (
	"go/constant"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A find-or-create decided by the schema needs no fence. Harness creates a
// merge queue under a redsync lock like this:
//
//	err = s.mergeQueueStore.Create(ctx, q)        // INSERT INTO merge_queues ...
//	if errors.IsConflict(err) {
//		q, err = s.mergeQueueStore.FindByRepoAndBranch(ctx, repoID, branch)
//		...
//	}
//
// The INSERT only adds a row, and its caller expects it to fail on a
// unique-key conflict: the table has a unique key on the row's identity,
// so the INSERT creates the one row with that key or fails, exactly like
// INSERT ... ON CONFLICT DO NOTHING (the insert-if-absent rule). A stale
// holder cannot add a second row, and it overwrites nothing. Precisely, an
// unfenced write that only appends (an INSERT with no DO UPDATE, ON
// DUPLICATE KEY UPDATE or REPLACE, or a call of a function whose every
// unfenced write is one) is fenced when its error is tested for a
// unique-key conflict:
//
//   - passed to a function whose name says so (IsConflict, IsDuplicate,
//     IsUniqueViolation, isUniqueConstraintError, IsAlreadyExists);
//   - compared by errors.Is with a sentinel error so named (ErrDuplicate,
//     ErrConflict, ErrAlreadyExists);
//   - or asserted (a type assertion, errors.As) to a driver's error type whose Code field is compared
//     with the SQLSTATE of a unique violation, "23505" (pgconn.PgError,
//     pq.Error), or whose Number is MySQL's duplicate-key error 1062.

// fenceByConflict marks the package's unfenced appends whose unique-key
// conflict their caller handles.
func (b *builder) fenceByConflict() {
	for _, w := range b.model.Writes {
		if w.Fenced || !w.Append || w.LockImpl || w.Unseen != "" {
			continue
		}
		call, ok := w.Call.(*ssa.Call)
		if !ok {
			continue
		}
		if errv := errorResult(call); errv != nil && conflictTested(errv) {
			w.Fenced, w.FencedBy = true, "a create-if-absent: its unique-key conflict is handled"
		}
	}
}

// conflictTested reports whether the error value errv is tested for a
// unique-key conflict.
func conflictTested(errv ssa.Value) bool {
	for _, use := range errorUses(errv) {
		switch x := use.(type) {
		case *ssa.Call:
			if conflictPredicate(x.Common(), errv) {
				return true
			}
		case *ssa.TypeAssert:
			if uniqueViolationCode(x) {
				return true
			}
		}
	}
	return false
}

// conflictPredicate reports whether call tests err for a unique-key
// conflict: a predicate so named, errors.Is with a sentinel so named, or
// errors.As into a driver error whose code is compared with a unique
// violation's.
func conflictPredicate(call *ssa.CallCommon, err ssa.Value) bool {
	f := calleeFunc(call)
	if f == nil {
		return false
	}
	if f.Pkg() != nil && f.Pkg().Path() == "errors" && f.Name() == "As" && len(call.Args) == 2 {
		return asTargetCodeCompared(call.Args[1])
	}
	if f.Pkg() != nil && f.Pkg().Path() == "errors" && f.Name() == "Is" && len(call.Args) == 2 {
		load, ok := call.Args[1].(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			return false
		}
		g, ok := load.X.(*ssa.Global)
		return ok && conflictName(g.Name())
	}
	return conflictName(f.Name()) && strings.HasPrefix(strings.ToLower(f.Name()), "is")
}

// asTargetCodeCompared reports whether the variable errors.As fills (its
// address passed as target) is a driver error whose code is compared with
// a unique violation's.
func asTargetCodeCompared(target ssa.Value) bool {
	if mi, ok := target.(*ssa.MakeInterface); ok {
		target = mi.X
	}
	alloc, ok := target.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, ref := range referrers(alloc) {
		load, ok := ref.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			continue
		}
		for _, r := range referrers(load) {
			if codeCompared(r) {
				return true
			}
		}
	}
	return false
}

// conflictName reports whether a name speaks of a unique-key conflict.
func conflictName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"conflict", "duplicate", "unique", "alreadyexist"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// uniqueViolationCode reports whether the asserted error's Code field is
// compared with PostgreSQL's unique_violation SQLSTATE, or its Number with
// MySQL's ER_DUP_ENTRY.
func uniqueViolationCode(ta *ssa.TypeAssert) bool {
	for _, ref := range referrers(ta) {
		var v ssa.Value
		switch x := ref.(type) {
		case *ssa.Extract:
			if x.Index != 0 {
				continue
			}
			v = x
		default:
			continue
		}
		for _, r := range referrers(v) {
			if codeCompared(r) {
				return true
			}
		}
	}
	for _, r := range referrers(ta) {
		if codeCompared(r) {
			return true
		}
	}
	return false
}

// codeCompared reports whether instr reads a Code or Number field (through
// a pointer) whose value is compared with a unique-violation constant.
func codeCompared(instr ssa.Instruction) bool {
	var field ssa.Value
	switch x := instr.(type) {
	case *ssa.FieldAddr:
		name := fieldName(x.X.Type(), x.Field)
		if name != "Code" && name != "Number" {
			return false
		}
		for _, r := range referrers(x) {
			if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL {
				field = load
			}
		}
	case *ssa.Field:
		name := fieldName(x.X.Type(), x.Field)
		if name != "Code" && name != "Number" {
			return false
		}
		field = x
	}
	if field == nil {
		return false
	}
	for _, r := range referrers(field) {
		cmp, ok := r.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
			continue
		}
		other := cmp.Y
		if other == field {
			other = cmp.X
		}
		if c, ok := unwrap(other).(*ssa.Const); ok && c.Value != nil && uniqueViolationConst(c) {
			return true
		}
	}
	return false
}

// uniqueViolationConst reports whether c is "23505" or 1062.
func uniqueViolationConst(c *ssa.Const) bool {
	switch c.Value.Kind() {
	case constant.String:
		return constant.StringVal(c.Value) == "23505"
	case constant.Int:
		n, ok := constant.Int64Val(c.Value)
		return ok && n == 1062
	}
	return false
}
