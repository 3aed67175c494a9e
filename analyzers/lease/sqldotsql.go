package lease

import (
	"fmt"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// dotsql (github.com/qustavo/dotsql) runs queries by name from a file of
// "-- name: X" blocks loaded at start-up:
//
//	dot, _ := dotsql.LoadFromString(queries) // queries embedded with //go:embed
//	dot.Exec(db, "finish-run", id, tok)
//
// The named query is looked up among the package's embedded files and
// judged as its SQL text. A file read from disk at run time
// (LoadFromFile) is out of an analyzer's reach, and so are embedded files
// under go vet, which does not list them: an Exec of a name the package's
// embedded files do not hold is reported as a write whose statement
// fencelint could not see, saying which; a Query of one is not judged.

// pkgDotsql is qustavo/dotsql.
const pkgDotsql = "github.com/qustavo/dotsql"

// dotsqlCatalog returns dotsql's rows: the query name is at Arg.
func dotsqlCatalog() []API {
	return []API{
		{Pkg: pkgDotsql, Recv: "DotSql", Name: "Exec", Role: RoleWrite, System: SQL, Fence: SQLNamed, Arg: 1},
		{Pkg: pkgDotsql, Recv: "DotSql", Name: "ExecContext", Role: RoleWrite, System: SQL, Fence: SQLNamed, Arg: 2},
		{Pkg: pkgDotsql, Recv: "DotSql", Name: "Query", Role: RoleWrite, System: SQL, Fence: SQLNamed, Arg: 1},
		{Pkg: pkgDotsql, Recv: "DotSql", Name: "QueryContext", Role: RoleWrite, System: SQL, Fence: SQLNamed, Arg: 2},
		{Pkg: pkgDotsql, Recv: "DotSql", Name: "QueryRow", Role: RoleWrite, System: SQL, Fence: SQLNamed, Arg: 1},
		{Pkg: pkgDotsql, Recv: "DotSql", Name: "QueryRowContext", Role: RoleWrite, System: SQL, Fence: SQLNamed, Arg: 2},
	}
}

// namedWrite classifies a call that runs a query by name.
func (b *builder) namedWrite(w *Write, call ssa.CallInstruction, api *API) *Write {
	name, ok := constString(arg(call.Common(), api.Arg))
	if !ok {
		return nil
	}
	if text, ok := b.namedQuery(name); ok {
		q := ssa.NewConst(constant.MakeString(text), types.Typ[types.String])
		return b.sqlWrite(w, call, q, api.Arg+1)
	}
	if !isExec(call) {
		return nil
	}
	w.What = fmt.Sprintf("%s (%q)", w.What, name)
	w.Unseen = "statement (its file is read at run time; embed it with //go:embed and load it with LoadFromString)"
	if b.embedded().unlisted {
		w.Unseen = "statement (the package's embedded files were not listed to fencelint, as go vet does not; the standalone fencelint reads them)"
	}
	return w
}
