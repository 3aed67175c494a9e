package lease

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// A MongoDB collection the application gives a unique index is to an
// insert what a SQL table's unique key is (schema.go): the insert creates
// the one document with that key or fails. A module proxy's store does
//
//	c := s.client.Database(s.db).Collection(s.coll)
//	c.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: keys, Options: options.Index().SetUnique(true)})
//	...
//	s.client.Database(s.db).Collection(s.coll).InsertOne(ctx, m)
//
// and a stale holder's second InsertOne gets a duplicate-key error. The
// collection is told by its name: the constant or the variable or field
// handed to Database.Collection, or the field or variable the collection
// is kept in. The index counts when the function that creates it
// (IndexView.CreateOne or CreateMany on that collection's Indexes()) also
// asks for uniqueness (SetUnique(true), or a Unique field set true).

// uniqueIndexed reports whether coll, a *mongo.Collection, is one the
// package gives a unique index, and where.
func (b *builder) uniqueIndexed(coll ssa.Value) (token.Pos, bool) {
	if b.uniqueColls == nil {
		b.uniqueColls = b.findUniqueColls()
	}
	key := mongoCollKey(coll)
	if key == nil {
		return token.NoPos, false
	}
	at, ok := b.uniqueColls[key]
	return at, ok
}

// findUniqueColls returns the collections the package's functions create
// a unique index on, by mongoCollKey.
func (b *builder) findUniqueColls() map[any]token.Pos {
	found := make(map[any]token.Pos)
	b.calls(func(fn *ssa.Function, call ssa.CallInstruction) bool {
		f := calleeFunc(call.Common())
		if f == nil || f.Name() != "CreateOne" && f.Name() != "CreateMany" || receiverName(f) != "IndexView" {
			return true
		}
		indexes, ok := unwrap(callRecv(call.Common())).(*ssa.Call)
		if !ok {
			return true
		}
		key := mongoCollKey(callRecv(indexes.Common()))
		if key == nil || !asksUnique(arg(call.Common(), 1)) {
			return true
		}
		if _, seen := found[key]; !seen {
			found[key] = call.Pos()
		}
		return true
	})
	return found
}

// asksUnique reports whether an index model asks for uniqueness: its
// Options are a chain of option setters holding SetUnique(true). models
// is CreateOne's IndexModel or CreateMany's slice of them (any one).
func asksUnique(models ssa.Value) bool {
	if elems, ok := variadic(unwrap(models)); ok {
		for _, e := range elems {
			if e != nil && asksUnique(e) {
				return true
			}
		}
		return false
	}
	load, ok := unwrap(models).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	for _, ref := range *load.X.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fieldName(fa.X.Type(), fa.Field) != "Options" {
			continue
		}
		for _, r := range *fa.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == fa && setsUnique(st.Val) {
				return true
			}
		}
	}
	return false
}

// setsUnique reports whether opts, a chain of option setters
// (options.Index().SetSparse(true).SetUnique(true)), holds SetUnique(true).
func setsUnique(opts ssa.Value) bool {
	for depth := 0; depth < 16; depth++ {
		call, ok := unwrap(opts).(*ssa.Call)
		if !ok {
			return false
		}
		f := calleeFunc(call.Common())
		if f == nil {
			return false
		}
		if f.Name() == "SetUnique" {
			return isTrue(arg(call.Common(), 0))
		}
		opts = callRecv(call.Common())
		if opts == nil {
			return false
		}
	}
	return false
}

// mongoCollKey names the collection coll is: the constant, variable or
// field handed to Database.Collection, or the field or package variable
// the collection is kept in; nil if it cannot be told.
func mongoCollKey(coll ssa.Value) any {
	switch x := unwrap(coll).(type) {
	case *ssa.Call:
		f := calleeFunc(x.Common())
		if f == nil || f.Name() != "Collection" {
			return nil
		}
		name := unwrap(arg(x.Common(), 0))
		if s, ok := constString(name); ok {
			return s
		}
		if fv := loadedField(name); fv != nil {
			return fv
		}
		if u, ok := name.(*ssa.UnOp); ok && u.Op == token.MUL {
			if g, ok := u.X.(*ssa.Global); ok {
				return g.Object()
			}
		}
	case *ssa.UnOp:
		if fv := loadedField(x); fv != nil {
			return fv
		}
		if g, ok := x.X.(*ssa.Global); ok && x.Op == token.MUL {
			return g.Object()
		}
	}
	return nil
}
