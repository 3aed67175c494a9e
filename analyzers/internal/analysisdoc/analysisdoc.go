// Package analysisdoc turns an analyzer's doc.go into its Analyzer.Doc, so the
// documentation is written once: godoc, -help and -explain all show doc.go.
package analysisdoc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Extract returns the "# Analyzer NAME" section of the package comment in
// src, the text of a doc.go file, with the heading removed. The section's
// first line is the one-line summary ("NAME: ..."), as go/analysis expects.
// It panics if src has no such section: a broken doc.go is a build-time bug.
func Extract(src, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		panic("internal error: doc.go does not parse: " + err.Error())
	}
	text := packageComment(f)
	heading := "# Analyzer " + name
	_, section, ok := strings.Cut(text, heading+"\n")
	if !ok {
		panic("internal error: doc.go has no " + heading + " section")
	}
	if i := strings.Index(section, "\n# "); i >= 0 {
		section = section[:i]
	}
	return strings.TrimSpace(section)
}

// packageComment returns the package comment of f as plain text, with
// doc-comment headings kept as "# Heading" lines.
func packageComment(f *ast.File) string {
	if f.Doc == nil {
		return ""
	}
	return f.Doc.Text()
}
