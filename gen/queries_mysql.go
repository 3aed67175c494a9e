package gen

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// A MySQL statement is read twice: by the TiDB parser (sqlc's MySQL
// parser), which says what it is and which table it writes, and, with
// strings, comments and quoted names normalized to keep every offset, by
// PostgreSQL's scanner, which says where its top-level clauses are. The
// token is always sqlc.arg(fencegen_token): sqlc's MySQL engine binds it
// in place beside ? parameters, which keep their places.

// newMySQLRewriter returns a rewriter when q writes a fenced table with a
// single-table UPDATE or DELETE, nil when it passes through.
func newMySQLRewriter(opts Options, schema *Schema, q *userQuery) (*rewriter, error) {
	stmt, err := parser.New().ParseOneStmt(q.Text, "", "")
	if err != nil {
		return nil, errorf(q.pos(0), "%s", mysqlMessage(err))
	}
	text, params := normalizeMySQL(q.Text, false)
	rw := &rewriter{opts: opts, d: newDialect(opts.Engine), q: q, text: text, orig: q.Text, params: params}
	var refs *ast.TableRefsClause
	var multi bool
	switch s := stmt.(type) {
	case *ast.UpdateStmt:
		rw.kind, refs, multi = "update", s.TableRefs, s.MultipleTable
	case *ast.DeleteStmt:
		rw.kind, refs, multi = "delete", s.TableRefs, s.IsMultiTable
	case *ast.InsertStmt:
		if t, fence := mysqlTarget(opts, schema, s.Table); fence != nil && q.Unfenced == "" && (s.IsReplace || len(s.OnDuplicate) > 0) {
			return nil, errorf(q.NamePos, "%s writes fenced table %s with REPLACE or ON DUPLICATE KEY UPDATE, which fencegen does not fence in your queries yet (REPLACE overwrites a newer holder's row); use fencegen's Upsert%s, or mark the query \"-- %s <reason>\"", q.Name, t.QualifiedName(), goTypeName(t), unfencedDirective)
		}
		return nil, nil
	default:
		return nil, nil
	}
	if multi || refs != nil && refs.TableRefs != nil && refs.TableRefs.Right != nil {
		// A join: any fenced table in it may be written.
		for _, tn := range joinedTables(refs.TableRefs) {
			t, fence := fencedTableOf(opts, schema, &pg.RangeVar{Schemaname: tn.Schema.O, Relname: tn.Name.O})
			if fence != nil && q.Unfenced == "" {
				return nil, errorf(q.NamePos, "%s writes fenced table %s in a multiple-table %s, which fencegen does not fence; write that table in a statement of its own, or mark the query \"-- %s <reason>\"", q.Name, t.QualifiedName(), strings.ToUpper(rw.kind), unfencedDirective)
			}
		}
		return nil, nil
	}
	rw.table, rw.fence = mysqlTarget(opts, schema, refs)
	if rw.fence == nil {
		return nil, nil
	}
	if s, ok := stmt.(*ast.UpdateStmt); ok {
		for _, a := range s.List {
			if strings.EqualFold(a.Column.Name.O, rw.fence.Name) {
				return nil, rw.setsFenceError()
			}
		}
	}
	rw.alias = rw.d.ident(rw.table.Name)
	if ts, ok := refs.TableRefs.Left.(*ast.TableSource); ok && ts.AsName.O != "" {
		rw.alias = rw.d.ident(ts.AsName.O)
	}
	return rw, rw.scan()
}

func (rw *rewriter) setsFenceError() error {
	return errorf(rw.q.NamePos, "%s sets fence column %q of %s itself; fencegen sets it from the token: remove the assignment and any fence condition, or mark the query \"-- %s <reason>\"", rw.q.Name, rw.fence.Name, rw.table.QualifiedName(), unfencedDirective)
}

// mysqlTarget returns the table a single-table clause names and its fence.
func mysqlTarget(opts Options, schema *Schema, refs *ast.TableRefsClause) (*Table, *Column) {
	if refs == nil || refs.TableRefs == nil {
		return nil, nil
	}
	ts, ok := refs.TableRefs.Left.(*ast.TableSource)
	if !ok {
		return nil, nil
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return nil, nil
	}
	return fencedTableOf(opts, schema, &pg.RangeVar{Schemaname: tn.Schema.O, Relname: tn.Name.O})
}

// joinedTables lists the tables of a join.
func joinedTables(n ast.ResultSetNode) []*ast.TableName {
	switch n := n.(type) {
	case *ast.Join:
		out := joinedTables(n.Left)
		if n.Right != nil {
			out = append(out, joinedTables(n.Right)...)
		}
		return out
	case *ast.TableSource:
		return joinedTables(n.Source)
	case *ast.TableName:
		return []*ast.TableName{n}
	}
	return nil
}

// mysqlMessage is the TiDB parser's message without its prefix.
func mysqlMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "near"); i >= 0 {
		return "syntax error " + msg[i:]
	}
	return msg
}

// modifiers counts MySQL's modifiers after UPDATE (LOW_PRIORITY, IGNORE),
// which precede the table.
func (rw *rewriter) modifiers(verb int) int {
	n := 0
	for i := verb + 1; i < len(rw.toks) && rw.opts.Engine == MySQL; i++ {
		switch strings.ToUpper(rw.text[rw.toks[i].start:rw.toks[i].end]) {
		case "LOW_PRIORITY", "IGNORE":
			n++
			continue
		}
		break
	}
	return n
}

// normalizeMySQL blanks the text of MySQL's strings and # comments (and
// the others unless keepComments), turns `name` into "name" and ? into an
// identifier, keeping every offset, and lists the ? parameters in order.
func normalizeMySQL(text string, keepComments bool) (string, paramStyle) {
	b := []byte(text)
	var ps paramStyle
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '#' || strings.HasPrefix(text[i:], "-- "):
			end := skipTo(text, i, "\n")
			if c == '#' || !keepComments {
				blank(i, end)
			}
			i = end
		case strings.HasPrefix(text[i:], "/*"):
			end := skipTo(text, i+2, "*/")
			if !keepComments {
				blank(i, end)
			}
			i = end
		case c == '\'' || c == '"':
			end := skipMySQLString(text, i)
			b[i] = '\''
			for j := i + 1; j < end-1; j++ {
				b[j] = 'x'
			}
			if end-1 > i {
				b[end-1] = '\''
			}
			i = end
		case c == '`':
			end := skipQuoted(text, i, '`')
			b[i] = '"'
			if end-1 > i {
				b[end-1] = '"'
			}
			i = end
		case c == '?':
			ps.list = append(ps.list, param{start: i, end: i + 1, n: len(ps.list) + 1, bare: true})
			b[i] = 'x'
			i++
		default:
			i++
		}
	}
	return string(b), ps
}

// skipMySQLString returns the offset past the string starting at i, which
// escapes with a backslash or a doubled quote.
func skipMySQLString(text string, i int) int {
	quote := text[i]
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case quote:
			if j+1 < len(text) && text[j+1] == quote {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(text)
}
