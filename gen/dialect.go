package gen

import (
	"regexp"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"github.com/pingcap/tidb/pkg/parser"
)

// dialect renders identifiers and parameters for one engine. It memoizes
// quoting, which asks PostgreSQL's scanner (a cgo call) about keywords.
type dialect struct {
	engine Engine
	quoted map[string]string
}

func newDialect(engine Engine) *dialect {
	return &dialect{engine: engine, quoted: map[string]string{}}
}

// plainPostgres matches identifiers that need no quoting when they are not
// keywords. Lower case only on every engine: sqlc folds unquoted names to
// lower case on all three, so a mixed-case name must be quoted to match the
// catalog. Compiled once and never modified.
var plainPostgres = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// ident quotes name exactly when the engine needs it: characters outside a
// plain identifier, upper case (folded when unquoted), or a keyword.
func (d *dialect) ident(name string) string {
	if q, ok := d.quoted[name]; ok {
		return q
	}
	q := d.quote(name)
	d.quoted[name] = q
	return q
}

func (d *dialect) quote(name string) string {
	switch d.engine {
	case PostgreSQL:
		if plainPostgres.MatchString(name) && !isPostgresKeyword(name) {
			return name
		}
		return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
	case MySQL:
		if plainPostgres.MatchString(name) && !isMySQLKeyword(name) {
			return name
		}
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	default:
		if plainPostgres.MatchString(name) && !isSQLiteKeyword(name) {
			return name
		}
		return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
	}
}

// table renders a possibly schema-qualified table name.
func (d *dialect) table(t *Table) string {
	if t.Schema == "" {
		return d.ident(t.Name)
	}
	return d.ident(t.Schema) + "." + d.ident(t.Name)
}

// arg renders a sqlc named parameter. The string form keeps names that are
// not plain identifiers ("OrderLine") intact; sqlc derives the Go field name
// from it as it does for the model's columns.
func (d *dialect) arg(name string) string {
	if plainPostgres.MatchString(name) && d.ident(name) == name {
		return "sqlc.arg(" + name + ")"
	}
	return "sqlc.arg('" + strings.ReplaceAll(name, "'", "''") + "')"
}

// tokenParam is the name of the token parameter in every fenced query.
const tokenParam = "fencegen_token"

// token renders the token parameter; PostgreSQL casts it so sqlc types it
// int64 even when the fence column is nullable.
func (d *dialect) token() string {
	if d.engine == PostgreSQL {
		return d.arg(tokenParam) + "::bigint"
	}
	return d.arg(tokenParam)
}

// isPostgresKeyword asks PostgreSQL's own scanner whether name is a keyword
// that cannot stand as a bare column name everywhere.
func isPostgresKeyword(name string) bool {
	res, err := pg.Scan(name)
	if err != nil || len(res.GetTokens()) != 1 {
		return true
	}
	kind := res.GetTokens()[0].GetKeywordKind()
	return kind != pg.KeywordKind_NO_KEYWORD && kind != pg.KeywordKind_UNRESERVED_KEYWORD
}

// isMySQLKeyword consults the TiDB parser's keyword table; it quotes
// unreserved keywords too, since MariaDB reserves some that TiDB does not.
func isMySQLKeyword(name string) bool {
	upper := strings.ToUpper(name)
	for _, k := range parser.Keywords {
		if k.Word == upper {
			return true
		}
	}
	return false
}

// isSQLiteKeyword reports whether name is one of SQLite's keywords
// (https://sqlite.org/lang_keywords.html).
func isSQLiteKeyword(name string) bool {
	switch strings.ToUpper(name) {
	case "ABORT", "ACTION", "ADD", "AFTER", "ALL", "ALTER", "ALWAYS", "ANALYZE", "AND", "AS", "ASC",
		"ATTACH", "AUTOINCREMENT", "BEFORE", "BEGIN", "BETWEEN", "BY", "CASCADE", "CASE", "CAST",
		"CHECK", "COLLATE", "COLUMN", "COMMIT", "CONFLICT", "CONSTRAINT", "CREATE", "CROSS",
		"CURRENT", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "DATABASE", "DEFAULT",
		"DEFERRABLE", "DEFERRED", "DELETE", "DESC", "DETACH", "DISTINCT", "DO", "DROP", "EACH",
		"ELSE", "END", "ESCAPE", "EXCEPT", "EXCLUDE", "EXCLUSIVE", "EXISTS", "EXPLAIN", "FAIL",
		"FILTER", "FIRST", "FOLLOWING", "FOR", "FOREIGN", "FROM", "FULL", "GENERATED", "GLOB",
		"GROUP", "GROUPS", "HAVING", "IF", "IGNORE", "IMMEDIATE", "IN", "INDEX", "INDEXED",
		"INITIALLY", "INNER", "INSERT", "INSTEAD", "INTERSECT", "INTO", "IS", "ISNULL", "JOIN",
		"KEY", "LAST", "LEFT", "LIKE", "LIMIT", "MATCH", "MATERIALIZED", "NATURAL", "NO", "NOT",
		"NOTHING", "NOTNULL", "NULL", "NULLS", "OF", "OFFSET", "ON", "OR", "ORDER", "OTHERS",
		"OUTER", "OVER", "PARTITION", "PLAN", "PRAGMA", "PRECEDING", "PRIMARY", "QUERY", "RAISE",
		"RANGE", "RECURSIVE", "REFERENCES", "REGEXP", "REINDEX", "RELEASE", "RENAME", "REPLACE",
		"RESTRICT", "RETURNING", "RIGHT", "ROLLBACK", "ROW", "ROWS", "SAVEPOINT", "SELECT", "SET",
		"TABLE", "TEMP", "TEMPORARY", "THEN", "TIES", "TO", "TRANSACTION", "TRIGGER", "UNBOUNDED",
		"UNION", "UNIQUE", "UPDATE", "USING", "VACUUM", "VALUES", "VIEW", "VIRTUAL", "WHEN",
		"WHERE", "WINDOW", "WITH", "WITHOUT":
		return true
	}
	return false
}
