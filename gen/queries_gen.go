package gen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"strings"
)

// userQuerySources renders the sqlc input of each users' queries file,
// named as it is kept in the output.
func userQuerySources(opts Options, files [][]*userQuery) ([]Source, error) {
	var out []Source
	seen := map[string]string{}
	for _, qs := range files {
		path := qs[0].file.Path
		name := fencedSourcePath(path)
		if old, ok := seen[name]; ok {
			return nil, fmt.Errorf("queries files %s and %s would both be written as %s; rename one", old, path, name)
		}
		seen[name] = path
		out = append(out, Source{Path: name, Data: []byte(renderQueries(qs))})
	}
	return out, nil
}

// readQueryFiles reads sqlc's Go file of each users' queries file, first
// giving the row types of fenced queries their exported names (sqlc names
// them after the unexported query: fencedListDocsRow becomes ListDocsRow)
// and sqlc's models their new names (a RETURNING * of table tokens
// returns sqlc's model Token, renamed TokenRow).
func readQueryFiles(opts Options, srcs []Source, files [][]*userQuery, goFiles map[string][]byte, models map[string]string) ([]queryFile, error) {
	var out []queryFile
	for i, src := range srcs {
		name := src.Path + ".go"
		renames := map[string]string{}
		for from, to := range models {
			renames[from] = to
		}
		for _, q := range files[i] {
			if q.Fenced != nil {
				renames[q.sqlcName()+"Row"] = q.Name + "Row"
			}
		}
		data, err := renameIdents(name, goFiles[name], renames)
		if err != nil {
			return nil, err
		}
		goFiles[name] = data
		sf, err := parseSQLCFile(name, data)
		if err != nil {
			return nil, err
		}
		out = append(out, queryFile{src: files[i][0].file.Path, queries: files[i], sqlc: sf})
	}
	return out, nil
}

// renameIdents renames the package-level names of a Go file as renames
// says: every identifier but field names, selected fields and the keys of
// composite literals (a column token gives a field Token, which stays).
func renameIdents(name string, src []byte, renames map[string]string) ([]byte, error) {
	if len(renames) == 0 {
		return src, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("reading sqlc's %s: %w", name, err)
	}
	keep := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, id := range n.Names {
				keep[id] = true
			}
		case *ast.SelectorExpr:
			keep[n.Sel] = true
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				keep[id] = true
			}
		case *ast.Ident:
			if to := renames[n.Name]; to != "" && !keep[n] {
				n.Name = to
			}
		}
		return true
	})
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return nil, fmt.Errorf("renaming in sqlc's %s: %w", name, err)
	}
	return out.Bytes(), nil
}

// checkQueryMethods refuses a query whose names would clash with
// fencegen's: a per-table write's method and params type (any query), or a
// token source's method (a fenced query, whose method is on Fenced too).
func checkQueryMethods(opts Options, tables []*fencedTable, files [][]*userQuery) error {
	perTable := map[string]string{}
	for _, t := range tables {
		for _, verb := range []string{"Update", "Upsert", "Delete"} {
			perTable[verb+t.GoName] = t.QualifiedName()
		}
	}
	sources := map[string]bool{"NextToken": opts.Sequence, "AcquireLease": opts.Leases, "RenewLease": opts.Leases, "ReleaseLease": opts.Leases}
	for _, qs := range files {
		for _, q := range qs {
			if table, ok := perTable[q.Name]; ok {
				return errorf(q.NamePos, "query %s has the name of fencegen's own write of table %s; rename the query", q.Name, table)
			}
			if q.Fenced != nil && sources[q.Name] {
				return errorf(q.NamePos, "query %s has the name of fencegen's token source method; rename the query", q.Name)
			}
		}
	}
	return nil
}

// placeUserMessage places one of sqlc's messages about a users' queries
// file (as srcs rendered it) in the user's file: at the same spot of a
// query that passed through unchanged, at the "-- name:" comment of a
// fenced one.
func placeUserMessage(srcs []Source, files [][]*userQuery) func(path string, line, col int, msg string) (Diagnostic, bool) {
	return func(path string, line, col int, msg string) (Diagnostic, bool) {
		for i, src := range srcs {
			if path != src.Path {
				continue
			}
			name := queryNameAt(string(src.Data), line)
			for _, q := range files[i] {
				switch name {
				case q.Name:
					return Diagnostic{Pos: q.renderedPos(line, col), Message: "sqlc: " + msg}, true
				case q.sqlcName(), q.checkName():
					return Diagnostic{Pos: q.NamePos, Message: fmt.Sprintf("sqlc rejects %s as fencegen fenced it (%s:%d:%d in the output: %s); fix the query, or mark it \"-- %s <reason>\"", q.Name, src.Path, line, col, msg, unfencedDirective)}, true
				}
			}
		}
		return Diagnostic{}, false
	}
}

// renderedPos maps line:col of the sqlc input back to the user's file, for
// a query that passed through unchanged.
func (q *userQuery) renderedPos(line, col int) Pos {
	k := line - q.renderedLine
	if q.renderedLine == 0 || k < 0 {
		return q.NamePos
	}
	off := 0
	for ; k > 0; k-- {
		i := strings.IndexByte(q.Text[off:], '\n')
		if i < 0 {
			return q.NamePos
		}
		off += i + 1
	}
	p := q.pos(off)
	p.Col += max(col-1, 0)
	return p
}
