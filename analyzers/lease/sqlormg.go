package lease

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// GORM's generics API (v1.30 and later) chains calls of its interfaces
// back to gorm.G:
//
//	n, err := gorm.G[Job](db).Where("id = ? AND fence < ?", id, tok).Update(ctx, "state", "done")
//
// The table is the type argument's, the conditions and conflict clauses
// (gorm.G's options) are those of the *gorm.DB chain (sqlorm.go), and the
// rows-affected count is the finisher's first result.

// gormGenericWrites are the write finishers of the generic interfaces,
// by the interface that declares them.
var gormGenericWrites = map[string][]string{
	"CreateInterface":            {"Create", "CreateInBatches", "Update", "Updates", "Delete"},
	"ChainInterface":             {"Update", "Updates", "Delete"},
	"SetUpdateOnlyInterface":     {"Update"},
	"SetCreateOrUpdateInterface": {"Create", "Update"},
}

// ormGenericCatalog returns the rows of GORM's generics API.
func ormGenericCatalog() []API {
	var c []API
	for _, recv := range []string{"CreateInterface", "ChainInterface", "SetUpdateOnlyInterface", "SetCreateOrUpdateInterface"} {
		for _, name := range gormGenericWrites[recv] {
			c = append(c, API{Pkg: pkgGorm, Recv: recv, Name: name, Role: RoleWrite, System: SQL, Fence: SQLORM})
		}
	}
	// Exec sends SQL text; Raw holds text its Scan sends
	// (gorm.G[bool](db).Raw("SELECT pg_try_advisory_lock(?)", key).Scan(ctx, &ok)).
	return append(c,
		API{Pkg: pkgGorm, Recv: "Interface", Name: "Exec", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 1},
		API{Pkg: pkgGorm, Recv: "Interface", Name: "Raw", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 0},
	)
}

// isGormGeneric reports whether t is one of the generic chain interfaces.
func isGormGeneric(t types.Type) bool {
	if normalizePath(pkgPathOf(t)) != pkgGorm {
		return false
	}
	_, ok := gormGenericWrites[typeName(t)]
	return ok || typeName(t) == "Interface"
}

// gormGenericCounts reports whether fn, a generic finisher, returns the
// rows-affected count as its first result.
func gormGenericCounts(fn *types.Func) bool {
	return isGormGeneric(recvType(fn)) && (fn.Name() == "Update" || fn.Name() == "Updates" || fn.Name() == "Delete")
}

// gormGeneric writes out the SQL a generic GORM write sends: the finisher
// c and the chain back to gorm.G.
func (f *folder) gormGeneric(c *ssa.Call, depth int) (string, bool) {
	fin := calleeFunc(c.Common())
	recv := recvType(fin)
	if fin == nil || !isGormGeneric(recv) || !slices.Contains(gormGenericWrites[typeName(recv)], fin.Name()) {
		return "", false
	}
	var chain []*ssa.CallCommon
	var start *ssa.CallCommon
	for v := callRecv(c.Common()); len(chain) < 64; {
		p := producer(f.through(v))
		if p == nil {
			break
		}
		fn := calleeFunc(p.Common())
		if fn == nil || fn.Pkg() == nil || normalizePath(fn.Pkg().Path()) != pkgGorm {
			break
		}
		if fn.Origin().Name() == "G" && receiverName(fn) == "" {
			start = p.Common()
			break
		}
		if !isGormGeneric(recvType(fn)) {
			break
		}
		chain = append(chain, p.Common())
		v = callRecv(p.Common())
	}
	g := &gormChain{table: f.b.modelTableOf(typeArg(recv))}
	if start == nil {
		g.unseenWhere = true // the chain began out of sight: a field, a parameter
	} else {
		exprs, known := variadic(arg(start, 1))
		if !known {
			g.unseenWhere = true
		}
		for _, e := range exprs {
			f.gormExpr(g, e, depth)
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		f.gormClause(g, chain[i], depth)
	}
	f.seen = true
	cc := c.Common()
	switch fin.Name() {
	case "Create", "CreateInBatches":
		return "INSERT INTO " + g.table + " (x) VALUES (" + f.hole(unwrap(arg(cc, 1))) + ")" + g.conflict, true
	case "Update":
		if len(callArgs(cc)) == 3 { // Update(ctx, column, value)
			return "UPDATE " + g.table + " SET " + f.fold(arg(cc, 1), depth+1) + " = " + f.hole(unwrap(arg(cc, 2))) + f.gormWhere(g, ""), true
		}
		return "UPDATE " + g.table + " SET x = " + f.hole(nil) + f.gormWhere(g, ""), true // Set(...).Update(ctx)
	case "Updates":
		return "UPDATE " + g.table + " SET x = " + f.hole(unwrap(arg(cc, 1))) + f.gormWhere(g, ""), true
	case "Delete":
		return "DELETE FROM " + g.table + f.gormWhere(g, ""), true
	}
	return "", false
}

// typeArg returns the first type argument of an instantiated named type
// (Job in ChainInterface[Job]), or nil.
func typeArg(t types.Type) types.Type {
	if n, ok := types.Unalias(t).(*types.Named); ok && n.TypeArgs().Len() > 0 {
		return n.TypeArgs().At(0)
	}
	return nil
}
