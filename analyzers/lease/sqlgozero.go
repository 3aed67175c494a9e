package lease

// go-zero's stores (github.com/zeromicro/go-zero/core/stores): the models
// goctl generates send their SQL through sqlx.Session (a SqlConn, or the
// Session of a transaction), most often from a func handed to
// sqlc.CachedConn.ExecCtx, which calls it with the connection and then
// drops the cache keys. The SQL text decides, as for database/sql: the
// generated "update %s set %s where id = $1" folds to an UPDATE keyed by
// its id, a SELECT is a read, and text built at run time is not judged.
// CachedConn's NoCache forms send the text they are given.

// Import paths of go-zero's SQL stores.
const (
	pkgGoZeroSqlx = "github.com/zeromicro/go-zero/core/stores/sqlx"
	pkgGoZeroSqlc = "github.com/zeromicro/go-zero/core/stores/sqlc"
)

// goZeroCatalog returns the catalog rows of go-zero's sqlx and sqlc: each
// call that sends a statement, with the argument that holds its text.
func goZeroCatalog() []API {
	var c []API
	sql := func(pkg, recv, name string, arg int) {
		c = append(c, API{Pkg: pkg, Recv: recv, Name: name, Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: arg})
	}
	// Session's methods are SqlConn's too (it embeds Session). The query
	// follows the context and, for the reads, the value scanned into.
	sql(pkgGoZeroSqlx, "Session", "Exec", 0)
	sql(pkgGoZeroSqlx, "Session", "ExecCtx", 1)
	for _, name := range []string{"QueryRow", "QueryRowPartial", "QueryRows", "QueryRowsPartial"} {
		sql(pkgGoZeroSqlx, "Session", name, 1)
		sql(pkgGoZeroSqlx, "Session", name+"Ctx", 2)
	}
	sql(pkgGoZeroSqlc, "CachedConn", "ExecNoCache", 0)
	sql(pkgGoZeroSqlc, "CachedConn", "ExecNoCacheCtx", 1)
	for _, name := range []string{"QueryRowNoCache", "QueryRowPartialNoCache", "QueryRowsNoCache", "QueryRowsPartialNoCache"} {
		sql(pkgGoZeroSqlc, "CachedConn", name, 1)
		sql(pkgGoZeroSqlc, "CachedConn", name+"Ctx", 2)
	}
	return c
}
