package lease

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// A query built once and kept in a cache of the package's own is read as
// the text the function builds. sqlboiler's generated Update does this:
//
//	cache, cached := jobUpdateCache[key]
//	if !cached {
//		cache.query = fmt.Sprintf("UPDATE \"jobs\" SET %s WHERE %s", ...)
//	}
//	result, err := exec.ExecContext(ctx, cache.query, values...)
//	if !cached {
//		jobUpdateCache[key] = cache
//	}
//
// The field a struct type's stores disagree on (every table's Update
// stores its own text into updateCache.query) is read instead from the
// stores into the local variable's field that reach the load, when the
// variable is a memo: it is only loaded, stored whole or through its
// fields, and the values stored whole come from a map the function alone
// fills with the variable, so a cached value is one the function built
// before. Several reaching stores are read as the branches of a phi, and
// a text formatted again with a formatter (its format the field itself) is
// the field's text with the verbs filled.

// memoFormat folds a format a memo variable's field holds, the text a
// formatter then completes (sqlboiler's Insert formats its cached INSERT
// again with its RETURNING clause): its holes stay this folder's.
func (f *folder) memoFormat(v ssa.Value, depth int) (string, bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return "", false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return "", false
	}
	return f.memoField(fa, depth)
}

// memoField folds a load through fa, the address of a field of a local
// memo variable, from the stores into that field that reach it.
func (f *folder) memoField(fa *ssa.FieldAddr, depth int) (string, bool) {
	alloc, ok := fa.X.(*ssa.Alloc)
	if !ok || f.busy[fa] || !f.b.isMemo(alloc) {
		return "", false
	}
	vals, ok := reachingFieldStores(fa, alloc)
	if !ok || len(vals) == 0 {
		return "", false
	}
	f.busy[fa] = true
	defer delete(f.busy, fa)
	if s, ok := f.same(vals, depth); ok {
		return s, true
	}
	if !f.enumerate {
		return "", false
	}
	return f.fold(vals[f.chooseOf(len(vals))], depth+1), true
}

// isMemo reports whether alloc is a local variable used only through its
// fields and whole loads and stores, whose whole stores come from a
// comma-ok lookup of a package-level map that only alloc's function fills,
// with alloc's value.
func (b *builder) isMemo(alloc *ssa.Alloc) bool {
	fn := alloc.Parent()
	whole := false
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.FieldAddr:
			for _, use := range *r.Referrers() {
				switch u := use.(type) {
				case *ssa.Store:
					if u.Addr != r {
						return false
					}
				case *ssa.UnOp:
					if u.Op != token.MUL {
						return false
					}
				default:
					return false
				}
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.Store:
			if r.Addr != alloc || !b.memoLookup(r.Val, alloc, fn) {
				return false
			}
			whole = true
		default:
			return false
		}
	}
	return whole
}

// memoLookup reports whether v is the value of a comma-ok lookup of a
// package-level map whose every entry the package stores is alloc's
// value, stored by fn, and which nothing replaces.
func (b *builder) memoLookup(v ssa.Value, alloc *ssa.Alloc, fn *ssa.Function) bool {
	ex, ok := v.(*ssa.Extract)
	if !ok || ex.Index != 0 {
		return false
	}
	l, ok := ex.Tuple.(*ssa.Lookup)
	if !ok || !l.CommaOk {
		return false
	}
	g, ok := mapRoot(l.X).(*ssa.Global)
	if !ok {
		return false
	}
	fills := b.memoFillsOf(g)
	if fills.replaced || len(fills.updates) == 0 {
		return false
	}
	for _, u := range fills.updates {
		val, ok := u.Value.(*ssa.UnOp)
		if u.Block().Parent() != fn || !ok || val.Op != token.MUL || val.X != alloc {
			return false
		}
	}
	return true
}

// memoFills is what the package does to a package-level map: the entries
// it stores, and whether it replaces the map itself outside init.
type memoFills struct {
	updates  []*ssa.MapUpdate
	replaced bool
}

// memoFillsOf returns what the package does to the map g, indexing every
// package-level map on first use.
func (b *builder) memoFillsOf(g *ssa.Global) *memoFills {
	if b.memos == nil {
		b.memos = make(map[*ssa.Global]*memoFills)
		fillsOf := func(g *ssa.Global) *memoFills {
			if b.memos[g] == nil {
				b.memos[g] = new(memoFills)
			}
			return b.memos[g]
		}
		for _, f := range b.funcs {
			for _, blk := range f.Blocks {
				for _, instr := range blk.Instrs {
					switch x := instr.(type) {
					case *ssa.Store:
						if g, ok := x.Addr.(*ssa.Global); ok && f.Name() != "init" {
							fillsOf(g).replaced = true
						}
					case *ssa.MapUpdate:
						if g, ok := mapRoot(x.Map).(*ssa.Global); ok {
							fillsOf(g).updates = append(fillsOf(g).updates, x)
						}
					}
				}
			}
		}
	}
	if f := b.memos[g]; f != nil {
		return f
	}
	return new(memoFills)
}

// reachingFieldStores returns the values stored into alloc's field fa.Field
// by the stores that reach fa, each path back to the nearest: a whole
// store (a cached value, built on another path) contributes nothing. It
// fails when a path reaches the function's entry without a store.
func reachingFieldStores(fa *ssa.FieldAddr, alloc *ssa.Alloc) ([]ssa.Value, bool) {
	var vals []ssa.Value
	seen := make(map[*ssa.BasicBlock]bool)
	var walk func(b *ssa.BasicBlock, upto int) bool
	walk = func(b *ssa.BasicBlock, upto int) bool {
		for i := upto - 1; i >= 0; i-- {
			st, ok := b.Instrs[i].(*ssa.Store)
			if !ok {
				continue
			}
			if st.Addr == alloc {
				return true
			}
			if a, ok := st.Addr.(*ssa.FieldAddr); ok && a.X == alloc && a.Field == fa.Field {
				vals = append(vals, st.Val)
				return true
			}
		}
		if len(b.Preds) == 0 {
			return false
		}
		for _, p := range b.Preds {
			if seen[p] {
				continue
			}
			seen[p] = true
			if !walk(p, len(p.Instrs)) {
				return false
			}
		}
		return true
	}
	blk := fa.Block()
	for i, instr := range blk.Instrs {
		if instr == fa {
			return vals, walk(blk, i)
		}
	}
	return nil, false
}
