package lease

import (
	"go/types"
	"slices"
	"strings"
)

// A program whose only SQL database is SQLite writes a file of its own
// node. sylve, a FreeBSD cluster manager, keeps each node's state in
// SQLite and has its raft leader write it:
//
//	if s.Raft.State() == raft.Leader {
//		s.DB.Model(&ClusterNode{}).Where("id = ?", id).Update("status", "offline")
//	}
//
// A leader deposed while it was paused writes its own node's database, not
// the next leader's: the holders share no SQL store, so no write of it can
// overwrite what another holder wrote, and none is reported. What a node
// replicates to the others goes through the lease's own store (raft's log,
// an etcd key), where it is judged. Precisely, in a standalone run, SQL
// writes are node-local when the program's packages import, directly or
// not, a SQLite driver (sqliteDrivers) and no driver of a shared database
// (sqlServerDrivers: PostgreSQL, MySQL, SQL Server, ClickHouse, a remote
// SQLite such as libSQL or rqlite, ...). The whole program is needed to
// know that no package opens another database, so go vet, which sees one
// package and its dependencies, still reports them. A driver the lists do
// not know is taken for none: a program that reaches a shared database
// only through such a driver would have its SQL writes wrongly quiet.

// localSQLNote says, as a write's FencedBy, why a SQL write is local.
const localSQLNote = "a node-local SQLite database (the program opens no shared SQL database)"

// SeedProgram returns what the first summary pass of a standalone run over
// pkgs needs to know of the whole program before it knows any
// implementation: whether its SQL is node-local. It is nil when there is
// nothing to say, and a pass given it is otherwise a first pass.
func SeedProgram(pkgs []*types.Package) *Program {
	if !localSQLOnly(pkgs) {
		return nil
	}
	return &Program{localSQL: true, seed: true}
}

// NodeLocalSQL reports whether the program's only SQL databases are
// SQLite files of its own node: the checks must run with the Program even
// when it has nothing to dispatch to.
func (p *Program) NodeLocalSQL() bool { return p != nil && p.localSQL }

// typesOf returns the packages' types.
func typesOf(pkgs []ProgramPackage) []*types.Package {
	out := make([]*types.Package, len(pkgs))
	for i, pkg := range pkgs {
		out[i] = pkg.Types
	}
	return out
}

// localSQLOnly reports whether the packages pkgs import, directly or not,
// a SQLite driver and no driver of a shared SQL database.
func localSQLOnly(pkgs []*types.Package) bool {
	sqlite, server := false, false
	seen := make(map[*types.Package]bool)
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if p == nil || seen[p] || server {
			return
		}
		seen[p] = true
		path := normalizePath(p.Path())
		sqlite = sqlite || slices.ContainsFunc(sqliteDrivers(), func(d string) bool { return underPath(path, d) })
		server = server || slices.ContainsFunc(sqlServerDrivers(), func(d string) bool { return underPath(path, d) })
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	for _, pkg := range pkgs {
		visit(pkg)
	}
	return sqlite && !server
}

// underPath reports whether path is the package root or one below it.
func underPath(path, root string) bool {
	return path == root || strings.HasPrefix(path, root+"/")
}

// markLocalSQL marks fenced the SQL writes of a program whose only SQL
// database is node-local.
func (b *builder) markLocalSQL() {
	if !b.localSQL {
		return
	}
	for _, w := range b.model.Writes {
		if w.System == SQL && !w.Fenced && !w.LockImpl {
			w.Fenced, w.FencedBy = true, localSQLNote
		}
	}
}
