package gen

import (
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// SQLite's UPDATE, DELETE and ON CONFLICT DO UPDATE are PostgreSQL's, apart
// from the spelling of parameters and quoted names, so fencegen reads a
// SQLite statement with pg_query after normalizing those (keeping every
// offset, so edits splice into the text as written). A statement pg_query
// still cannot read passes through, unless it writes a fenced table.

// sqliteLex calls visit for each SQLite quoted name and parameter of text,
// skipping comments and string literals. kind is the token's first byte.
func sqliteLex(text string, visit func(kind byte, start, end int)) {
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case strings.HasPrefix(text[i:], "--"):
			i = skipTo(text, i+2, "\n")
		case strings.HasPrefix(text[i:], "/*"):
			i = skipTo(text, i+2, "*/")
		case c == '\'' || c == '"':
			i = skipQuoted(text, i, c)
		case c == '`':
			end := skipQuoted(text, i, '`')
			visit(c, i, end)
			i = end
		case c == '[':
			end := skipTo(text, i+1, "]")
			visit(c, i, end)
			i = end
		case c == '?':
			end := i + 1
			for end < len(text) && text[end] >= '0' && text[end] <= '9' {
				end++
			}
			visit(c, i, end)
			i = end
		case (c == ':' || c == '$') && i+1 < len(text) && isNameByte(text[i+1]):
			end := i + 1
			for end < len(text) && isNameByte(text[end]) {
				end++
			}
			visit(c, i, end)
			i = end
		default:
			i++
		}
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// skipTo returns the offset just past the next sep at or after i, or the end.
func skipTo(text string, i int, sep string) int {
	if j := strings.Index(text[i:], sep); j >= 0 {
		return i + j + len(sep)
	}
	return len(text)
}

// skipQuoted returns the offset past the quoted token starting at i, whose
// quote character doubles to escape itself.
func skipQuoted(text string, i int, quote byte) int {
	for j := i + 1; j < len(text); j++ {
		if text[j] == quote {
			if j+1 < len(text) && text[j+1] == quote {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(text)
}

// normalizeSQLite rewrites SQLite's [name] and `name` as "name", and its
// parameters (?, ?NNN, :name, $name) as identifiers of the same length,
// for pg_query.
func normalizeSQLite(text string) string {
	b := []byte(text)
	sqliteLex(text, func(kind byte, start, end int) {
		switch kind {
		case '[', '`':
			b[start] = '"'
			if end > start+1 {
				b[end-1] = '"'
			}
		default:
			b[start] = 'x'
		}
	})
	return string(b)
}

// sqliteParams numbers the statement's ? and ?NNN parameters as SQLite
// does: ?NNN is NNN, ? is one more than the largest number before it.
func sqliteParams(text string) paramStyle {
	var ps paramStyle
	sqliteLex(text, func(kind byte, start, end int) {
		if kind != '?' {
			return
		}
		p := param{start: start, end: end, n: ps.max + 1, bare: end == start+1}
		if !p.bare {
			p.n, _ = strconv.Atoi(text[start+1 : end])
		}
		ps.positional = true
		ps.max = max(ps.max, p.n)
		ps.list = append(ps.list, p)
	})
	return ps
}

// sqliteUnparsed judges a SQLite statement pg_query cannot read: it passes
// through unless it writes a fenced table (INSERT OR REPLACE, REPLACE
// INTO, UPDATE OR ...), which would then go unfenced.
func sqliteUnparsed(opts Options, schema *Schema, q *userQuery, text string) error {
	res, err := pg.Scan(text)
	if err != nil || q.Unfenced != "" {
		return nil
	}
	var words []string
	for _, t := range res.GetTokens() {
		if t.GetToken() == pg.Token_SQL_COMMENT || t.GetToken() == pg.Token_C_COMMENT {
			continue
		}
		words = append(words, text[t.GetStart():t.GetEnd()])
		if len(words) == 6 {
			break
		}
	}
	if len(words) == 0 {
		return nil
	}
	switch strings.ToUpper(words[0]) {
	case "UPDATE", "DELETE", "INSERT", "REPLACE":
	default:
		return nil
	}
	for _, w := range words[1:] {
		name := strings.Trim(w, `"`)
		if t, fence := fencedTableOf(opts, schema, &pg.RangeVar{Relname: name}); fence != nil {
			return errorf(q.pos(0), "%s writes fenced table %s in a form fencegen cannot fence (REPLACE and INSERT OR REPLACE overwrite a newer holder's row); use UPDATE, DELETE or INSERT ... ON CONFLICT DO UPDATE, or mark the query \"-- %s <reason>\"", q.Name, t.QualifiedName(), unfencedDirective)
		}
	}
	return nil
}
