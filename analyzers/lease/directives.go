package lease

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// The fencelint directives. Role directives go on a function's doc comment;
// ignore goes on a line or the line before a statement.
const directivePrefix = "//fencelint:"

var roleDirectives = map[string]Role{
	"acquire": RoleAcquire,
	"release": RoleRelease,
	"renew":   RoleRenew,
	"check":   RoleCheck,
	"token":   RoleToken,
	"write":   RoleWrite,
	"fenced":  RoleFenced,
}

// A Problem is a malformed, misplaced or useless directive.
type Problem struct {
	Pos     token.Pos
	End     token.Pos
	Message string
}

// directives holds what a package's comments say.
type directives struct {
	roles    map[*types.Func]Role
	ignores  []*ignore
	nolints  map[lineKey][]nolint
	problems []Problem
}

type lineKey struct {
	file string
	line int
}

// A nolint is one name in a //nolint comment: an analyzer's, "fencelint",
// or "" for a bare //nolint that silences everything.
type nolint struct {
	comment *ast.Comment
	name    string
}

// An ignore is one //fencelint:ignore directive and the line it covers.
type ignore struct {
	comment *ast.Comment
	covers  lineKey
}

// parseDirectives reads every comment of pass's files.
func parseDirectives(pass *analysis.Pass) *directives {
	d := &directives{roles: make(map[*types.Func]Role), nolints: make(map[lineKey][]nolint)}
	for _, f := range pass.Files {
		docs := funcDocs(pass, f)
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				d.parseComment(pass, f, c, docs[cg])
			}
		}
	}
	return d
}

// funcDocs maps each doc comment of a function or of an interface method
// of f to that function or method. A directive on an interface method
// declares what every call through the interface does, for callers that
// cannot see the implementations (go vet analyzes one package at a time).
func funcDocs(pass *analysis.Pass, f *ast.File) map[*ast.CommentGroup]*types.Func {
	docs := make(map[*ast.CommentGroup]*types.Func)
	add := func(doc *ast.CommentGroup, name *ast.Ident) {
		if fn, ok := pass.TypesInfo.Defs[name].(*types.Func); ok && doc != nil {
			docs[doc] = fn
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			add(n.Doc, n.Name)
		case *ast.InterfaceType:
			for _, m := range n.Methods.List {
				if len(m.Names) == 1 {
					add(m.Doc, m.Names[0])
				}
			}
		}
		return true
	})
	return docs
}

func (d *directives) parseComment(pass *analysis.Pass, f *ast.File, c *ast.Comment, fn *types.Func) {
	text := c.Text
	if strings.HasPrefix(text, "//nolint") {
		d.addNolint(pass, c)
		return
	}
	if !strings.HasPrefix(text, directivePrefix) {
		if rest, ok := strings.CutPrefix(text, "// fencelint:"); ok && rest != "" {
			d.problem(c, "fencelint directives are written with no space after //: use //fencelint:%s", firstWord(rest))
		}
		return
	}
	name, arg, _ := strings.Cut(strings.TrimPrefix(text, directivePrefix), " ")
	arg, _, _ = strings.Cut(arg, "//") // a trailing comment is not part of the directive
	arg = strings.TrimSpace(arg)
	switch role, isRole := roleDirectives[name]; {
	case name == "ignore":
		if arg == "" {
			d.problem(c, "//fencelint:ignore needs a reason: say why the finding is safe, e.g. //fencelint:ignore idempotent upsert")
			return
		}
		d.ignores = append(d.ignores, &ignore{comment: c, covers: coveredLine(pass, f, c)})
	case isRole:
		if fn == nil {
			d.problem(c, "//fencelint:%s must be in the doc comment of a function or of an interface method, directly above it", name)
			return
		}
		if arg != "" {
			d.problem(c, "//fencelint:%s takes no argument; remove %q", name, arg)
			return
		}
		d.roles[fn] |= role
	default:
		d.problem(c, "unknown directive //fencelint:%s; known: acquire, release, renew, check, token, write, fenced, ignore", name)
	}
}

func (d *directives) addNolint(pass *analysis.Pass, c *ast.Comment) {
	p := pass.Fset.Position(c.Pos())
	key := lineKey{p.Filename, p.Line}
	rest, found := strings.CutPrefix(c.Text, "//nolint:")
	if !found {
		if strings.TrimSpace(strings.TrimPrefix(c.Text, "//nolint")) == "" {
			d.nolints[key] = append(d.nolints[key], nolint{c, ""})
		}
		return
	}
	names, _, _ := strings.Cut(rest, " ")
	for name := range strings.SplitSeq(names, ",") {
		d.nolints[key] = append(d.nolints[key], nolint{c, strings.TrimSpace(name)})
	}
}

// coveredLine is the line an ignore directive silences: its own line when it
// trails code, otherwise the next line.
func coveredLine(pass *analysis.Pass, f *ast.File, c *ast.Comment) lineKey {
	p := pass.Fset.Position(c.Pos())
	if trailsCode(pass, f, c) {
		return lineKey{p.Filename, p.Line}
	}
	return lineKey{p.Filename, p.Line + 1}
}

// trailsCode reports whether some code precedes c on its line.
func trailsCode(pass *analysis.Pass, f *ast.File, c *ast.Comment) bool {
	tf := pass.Fset.File(c.Pos())
	if tf == nil {
		return false
	}
	line := tf.Line(c.Pos())
	lineStart := tf.LineStart(line)
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if n.Pos() > c.Pos() || n.End() < lineStart {
			return n.Pos() <= c.Pos() && n.End() >= lineStart
		}
		if _, isFile := n.(*ast.File); !isFile && n.End() > lineStart && n.End() <= c.Pos() {
			found = true
		}
		return true
	})
	return found
}

func (d *directives) problem(c *ast.Comment, format string, args ...any) {
	d.problems = append(d.problems, Problem{Pos: c.Pos(), End: c.End(), Message: sprintf(format, args...)})
}

// silencer returns the directive that silences analyzer at file:line, or nil.
func (d *directives) silencer(analyzer, file string, line int) *ast.Comment {
	key := lineKey{file, line}
	for _, ig := range d.ignores {
		if ig.covers == key {
			return ig.comment
		}
	}
	for _, nl := range d.nolints[key] {
		if nl.name == "" || nl.name == analyzer || nl.name == "fencelint" {
			return nl.comment
		}
	}
	return nil
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(s, " ")
	return w
}

// unusedIgnores reports ignore directives that cover no line where
// fencelint looks at anything: no store write, lease, check, renewal,
// lost-signal or goroutine. They are usually left behind after code moved,
// and silence the next finding that lands on their line.
func (b *builder) unusedIgnores() []Problem {
	sites := make(map[lineKey]bool)
	mark := func(pos token.Pos) {
		p := b.pass.Fset.Position(pos)
		sites[lineKey{p.Filename, p.Line}] = true
	}
	m := b.model
	for _, w := range m.Writes {
		mark(w.Pos)
	}
	for _, l := range m.Leases {
		mark(l.Pos)
	}
	for _, c := range m.Checks {
		mark(c.Pos)
	}
	for _, r := range m.Renewals {
		mark(r.Pos)
	}
	for _, s := range m.Signals {
		mark(s.Pos)
	}
	for _, g := range m.Goroutines {
		mark(g.Pos)
	}
	var problems []Problem
	for _, ig := range b.dirs.ignores {
		if !sites[ig.covers] {
			problems = append(problems, Problem{Pos: ig.comment.Pos(), End: ig.comment.End(),
				Message: "this //fencelint:ignore covers no write, lease, check or renewal: remove it, or move it onto the line it should silence"})
		}
	}
	return problems
}
