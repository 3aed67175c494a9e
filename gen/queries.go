package gen

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// A users' queries file is a sqlc queries file: statements separated by
// semicolons, each preceded by a "-- name: Name :cmd" comment. fencegen
// fences the writes among them that touch a fenced table and passes the
// others to sqlc unchanged.

// unfencedDirective marks a query that must stay unfenced; a reason must
// follow it on the same line.
const unfencedDirective = "fencegen:unfenced"

// nameComment is sqlc's query annotation. Compiled once, never modified.
var nameComment = regexp.MustCompile(`^--\s*name:\s*(\S+)\s*(:\S+)?\s*$`)

// userQuery is one query of a users' queries file.
type userQuery struct {
	Name     string
	Cmd      string // sqlc's command as written, e.g. ":exec"
	NamePos  Pos    // the "-- name:" comment
	Unfenced string // the reason given with -- fencegen:unfenced, if any
	Comments []string
	Text     string // the statement as written, without its semicolon
	Offset   int    // byte offset of Text in its file
	file     *sourceFile

	Fenced *fencedQuery // nil when the query passes through unchanged

	renderedLine int // where Text starts in the sqlc input, if passed through
}

// queryBlock is the raw split of a queries file before parsing.
type queryBlock struct {
	comments []comment // comments before the statement
	start    int       // statement's first byte
	end      int       // byte after its last token (before ';')
}

type comment struct {
	text   string
	offset int
}

// fencedQuery is a user's write rewritten to carry the token.
type fencedQuery struct {
	Kind  string // "update", "delete" or "upsert"
	Table *Table
	Fence *Column
	SQL   string // the rewritten statement
	// Check counts, after a write, the rows the statement's condition
	// matches and those a newer token holds (update and delete only).
	Check string
	// Positional is set when the query numbers its parameters ($1): the
	// token is then the last parameter of the write. ByIndex is set when
	// the check's parameters are matched to the write's by position:
	// CheckParams lists, for each parameter of the check query in order,
	// the write's parameter (1-based, the token left out) it stands for.
	Positional  bool
	ByIndex     bool
	CheckParams []int
	Tuples      int // rows an upsert's VALUES lists
	// Limited is set for a MySQL UPDATE or DELETE with LIMIT, whose check
	// counts stale rows beyond the limit too.
	Limited bool
	// Counted is set for a MySQL upsert, whose LastInsertId counts the
	// rows its fence rejected (see mysqlUpsert).
	Counted bool
}

// The Go method's shape follows the query's sqlc command.
const (
	cmdExec     = ":exec"
	cmdExecRows = ":execrows"
	cmdOne      = ":one"
	cmdMany     = ":many"
)

// sqlcName is the sqlc query name of a fenced user query: unexported, so
// the write is reachable only through the token-taking method.
func (q *userQuery) sqlcName() string  { return "fenced" + q.Name }
func (q *userQuery) checkName() string { return "fenced" + q.Name + "Check" }

func (q *userQuery) pos(offset int) Pos { return q.file.pos(q.Offset + offset) }

// sqlcCmd is the command the rewritten query runs with: a fenced :exec
// needs the affected-rows count to tell a rejected write.
func (q *userQuery) sqlcCmd() string {
	if q.Fenced != nil && q.Fenced.Counted {
		return ":execresult" // the count of rejected rows is its LastInsertId
	}
	if q.Fenced != nil && q.Cmd == cmdExec {
		return cmdExecRows
	}
	return q.Cmd
}

// readQueries splits a queries file into its named queries and reads each
// query's fencegen directive.
func readQueries(engine Engine, src Source) ([]*userQuery, error) {
	file := newSourceFile(src)
	blocks, err := splitQueries(engine, src)
	if err != nil {
		return nil, err
	}
	var out []*userQuery
	for _, b := range blocks {
		q := &userQuery{Text: file.text[b.start:b.end], Offset: b.start, file: file}
		for _, c := range b.comments {
			if err := q.readComment(c); err != nil {
				return nil, err
			}
		}
		if q.Name == "" {
			return nil, errorf(file.pos(b.start), "query has no \"-- name: Name :cmd\" comment; sqlc needs one before each query")
		}
		out = append(out, q)
	}
	return out, checkQueryNames(out)
}

// readComment records a comment before the query: its name, a fencegen
// directive, or a line kept for the method's documentation.
func (q *userQuery) readComment(c comment) error {
	pos := q.file.pos(c.offset)
	text := strings.TrimSpace(c.text)
	if m := nameComment.FindStringSubmatch(text); m != nil {
		q.Name, q.Cmd, q.NamePos = m[1], m[2], pos
		return nil
	}
	body := strings.TrimSpace(strings.TrimPrefix(text, "--"))
	if !strings.HasPrefix(body, "fencegen:") {
		q.Comments = append(q.Comments, text)
		return nil
	}
	directive, reason, _ := strings.Cut(body, " ")
	if directive != unfencedDirective {
		return errorf(pos, "unknown directive %q; the one fencegen reads in a queries file is \"-- %s <reason>\"", directive, unfencedDirective)
	}
	if q.Unfenced = strings.TrimSpace(reason); q.Unfenced == "" {
		return errorf(pos, "-- %s needs a reason after it (why this write is safe without a fencing token)", unfencedDirective)
	}
	q.Comments = append(q.Comments, text) // kept for readers of the generated code
	return nil
}

// checkQueryNames rejects two queries of one name, which sqlc would also
// refuse but without the second one's position.
func checkQueryNames(qs []*userQuery) error {
	seen := map[string]*userQuery{}
	for _, q := range qs {
		if old := seen[q.Name]; old != nil {
			return errorf(q.NamePos, "a query named %s is already defined at %s; rename one", q.Name, old.NamePos)
		}
		seen[q.Name] = q
	}
	return nil
}

// fenceQueries reads the users' queries files and rewrites every write of a
// fenced table. It returns the queries in file order, each file's queries
// together.
func fenceQueries(opts Options, schema *Schema) ([][]*userQuery, error) {
	var out [][]*userQuery
	names := map[string]*userQuery{}
	for _, src := range opts.Queries {
		qs, err := readQueries(opts.Engine, src)
		if err != nil {
			return nil, err
		}
		for _, q := range qs {
			if old := names[q.Name]; old != nil {
				return nil, errorf(q.NamePos, "a query named %s is already defined at %s; rename one", q.Name, old.NamePos)
			}
			names[q.Name] = q
			if err := fenceUserQuery(opts, schema, q); err != nil {
				return nil, err
			}
		}
		if opts.FencedOnly {
			qs = onlyFenced(qs)
		}
		if len(qs) > 0 {
			out = append(out, qs)
		}
	}
	return out, nil
}

// onlyFenced drops the queries that pass through.
func onlyFenced(qs []*userQuery) []*userQuery {
	var out []*userQuery
	for _, q := range qs {
		if q.Fenced != nil {
			out = append(out, q)
		}
	}
	return out
}

// fenceUserQuery rewrites q if it writes a fenced table (and says nothing
// against it).
func fenceUserQuery(opts Options, schema *Schema, q *userQuery) error {
	newRW := newRewriter
	if opts.Engine == MySQL {
		newRW = newMySQLRewriter
	}
	rw, err := newRW(opts, schema, q)
	if err != nil || rw == nil {
		return err
	}
	if q.Unfenced != "" {
		return nil
	}
	switch q.Cmd {
	case cmdExec, cmdExecRows, cmdOne, cmdMany:
	default:
		return errorf(q.NamePos, "%s writes fenced table %s but is a %s query; fencegen fences :exec, :execrows, :one and :many queries: use one of them, or mark the query \"-- %s <reason>\"", q.Name, rw.table.QualifiedName(), q.Cmd, unfencedDirective)
	}
	q.Fenced, err = rw.rewrite()
	if err != nil {
		return err
	}
	if (q.Cmd == cmdOne || q.Cmd == cmdMany) && !rw.returning {
		return errorf(q.NamePos, "%s is a %s query but returns nothing; add RETURNING or make it :exec or :execrows", q.Name, q.Cmd)
	}
	return nil
}

// fencedSourcePath names the rewritten copy of a queries file in the
// output: sqlc names its Go file after it (query.sql gives
// query.fenced.sql and query.fenced.sql.go).
func fencedSourcePath(p string) string {
	base := path.Base(strings.ReplaceAll(p, `\`, "/"))
	return strings.TrimSuffix(base, ".sql") + ".fenced.sql"
}

// renderQueries renders the sqlc input for one users' queries file: the
// queries that pass through as written, the fenced ones rewritten under
// their unexported names with their check queries.
func renderQueries(qs []*userQuery) string {
	var b strings.Builder
	for _, q := range qs {
		if q.Fenced == nil {
			fmt.Fprintf(&b, "-- name: %s %s\n", q.Name, q.Cmd)
			for _, c := range q.Comments {
				b.WriteString(c + "\n")
			}
			q.renderedLine = strings.Count(b.String(), "\n") + 1
			b.WriteString(q.Text + ";\n\n")
			continue
		}
		fmt.Fprintf(&b, "-- name: %s %s\n", q.sqlcName(), q.sqlcCmd())
		for _, c := range q.Comments {
			b.WriteString(c + "\n")
		}
		b.WriteString(q.Fenced.SQL + ";\n\n")
		if q.Fenced.Check != "" {
			fmt.Fprintf(&b, "-- name: %s :one\n%s;\n\n", q.checkName(), q.Fenced.Check)
		}
	}
	return b.String()
}
