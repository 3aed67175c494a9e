package lease

import (
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Queries kept in files embedded with //go:embed are read at analysis time
// through Pass.ReadFile, which gives only the files the driver lists with
// the package (fencelint's standalone driver lists the embedded ones), so
// the analysis stays a pure function of the package. Named-query files
// ("-- name: UpdateDoc" blocks, as sqlc, yesql and dotsql write them) are
// split into their queries.

// embeds is what the package embeds, read once.
type embeds struct {
	byVar map[*types.Var][]embedded // the files each //go:embed variable holds
	named map[string]string         // named queries of every embedded file
	// unlisted says the package embeds files the driver did not list to
	// the analysis (go vet does not): their SQL could not be read.
	unlisted bool
}

// An embedded file: its name relative to the package and its text.
type embedded struct {
	name string
	text string
}

// embeddedVar returns the text of a string or []byte variable that embeds
// exactly one file.
func (b *builder) embeddedVar(g *ssa.Global) (string, bool) {
	v, ok := g.Object().(*types.Var)
	if !ok || !isStringish(v.Type()) {
		return "", false
	}
	files := b.embedded().byVar[v]
	if len(files) != 1 {
		return "", false
	}
	return files[0].text, true
}

// embeddedFile returns the text fs.ReadFile(name) reads from an embed.FS
// variable of the package.
func (b *builder) embeddedFile(fs, name ssa.Value) (string, bool) {
	load, ok := unwrap(fs).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return "", false
	}
	g, ok := load.X.(*ssa.Global)
	if !ok {
		return "", false
	}
	v, _ := g.Object().(*types.Var)
	n, ok := constString(name)
	if v == nil || !ok {
		return "", false
	}
	for _, f := range b.embedded().byVar[v] {
		if f.name == path.Clean(n) {
			return f.text, true
		}
	}
	return "", false
}

// namedQuery returns the query named name in an embedded file.
func (b *builder) namedQuery(name string) (string, bool) {
	s, ok := b.embedded().named[name]
	return s, ok
}

// embedded reads the package's //go:embed variables and their files.
func (b *builder) embedded() *embeds {
	if b.embeds != nil {
		return b.embeds
	}
	e := &embeds{byVar: make(map[*types.Var][]embedded), named: make(map[string]string)}
	b.embeds = e
	if b.pass.ReadFile == nil || len(b.pass.Files) == 0 {
		return e
	}
	candidates := append(append([]string(nil), b.pass.OtherFiles...), b.pass.IgnoredFiles...)
	dir := filepath.Dir(b.pass.Fset.File(b.pass.Files[0].FileStart).Name())
	read := make(map[string]string)
	for _, file := range b.pass.Files {
		for _, decl := range file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				doc := vs.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				patterns := embedPatterns(doc)
				if len(patterns) == 0 || len(vs.Names) != 1 {
					continue
				}
				v, _ := b.pass.TypesInfo.Defs[vs.Names[0]].(*types.Var)
				if v == nil {
					continue
				}
				for _, name := range candidates {
					rel, err := filepath.Rel(dir, name)
					if err != nil || !embedMatches(patterns, filepath.ToSlash(rel)) {
						continue
					}
					text, seen := read[name]
					if !seen {
						data, err := b.pass.ReadFile(name)
						if err != nil {
							continue
						}
						text = string(data)
						read[name] = text
						for q, body := range namedBlocks(text) {
							e.named[q] = body
						}
					}
					e.byVar[v] = append(e.byVar[v], embedded{name: filepath.ToSlash(rel), text: text})
				}
				if len(e.byVar[v]) == 0 {
					e.unlisted = true
				}
			}
		}
	}
	return e
}

// embedPatterns returns the patterns of the //go:embed lines of doc.
func embedPatterns(doc *ast.CommentGroup) []string {
	if doc == nil {
		return nil
	}
	var patterns []string
	for _, c := range doc.List {
		rest, ok := strings.CutPrefix(c.Text, "//go:embed")
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		for _, f := range splitEmbed(rest) {
			patterns = append(patterns, strings.TrimPrefix(f, "all:"))
		}
	}
	return patterns
}

// splitEmbed splits a //go:embed line into patterns, unquoting "a b" and `a b`.
func splitEmbed(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' || s[0] == '`' {
			end := strings.IndexByte(s[1:], s[0])
			if end < 0 {
				return out
			}
			if p, err := strconv.Unquote(s[:end+2]); err == nil {
				out = append(out, p)
			}
			s = s[end+2:]
			continue
		}
		f, rest, _ := strings.Cut(s, " ")
		out = append(out, f)
		s = rest
	}
	return out
}

// embedMatches reports whether the file at rel (slash-separated, relative
// to the package) is embedded by one of patterns: matched by a pattern, or
// inside a directory a pattern names or matches.
func embedMatches(patterns []string, rel string) bool {
	for _, p := range patterns {
		for r := rel; r != "." && r != "/" && r != ""; r = path.Dir(r) {
			if ok, _ := path.Match(p, r); ok {
				return true
			}
		}
	}
	return false
}

// namedBlocks splits a named-query file into its queries: each
// "-- name: X" comment line (sqlc's "-- name: X :exec" too) starts the
// query named X, which runs to the next such line.
func namedBlocks(text string) map[string]string {
	var named map[string]string
	name, start := "", 0
	flush := func(end int) {
		if name != "" {
			if named == nil {
				named = make(map[string]string)
			}
			named[name] = text[start:end]
		}
	}
	for off := 0; off < len(text); {
		line, _, _ := strings.Cut(text[off:], "\n")
		next := off + len(line) + 1
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "--"); ok {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(rest), "name:"); ok {
				if fields := strings.Fields(rest); len(fields) > 0 {
					flush(off)
					name, start = fields[0], min(next, len(text))
				}
			}
		}
		off = next
	}
	flush(len(text))
	return named
}
