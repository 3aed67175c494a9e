package main

import (
	"bufio"
	"cmp"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/fencelint/fencelint/analyzers/lease"
)

// A finding is one diagnostic of one check, with its positions resolved.
type finding struct {
	check      string
	diag       analysis.Diagnostic
	fset       *token.FileSet
	pos, end   token.Position
	suppressed *analysis.RelatedInformation // the directive that silences it, if any
}

// collect returns the diagnostics of graph's root actions as findings,
// each once (a package and its test variant share files), sorted by
// position.
func collect(graph *checker.Graph) []finding {
	type key struct {
		pos            token.Position
		check, message string
	}
	seen := make(map[key]bool)
	var findings []finding
	for _, act := range graph.Roots {
		if act.Err != nil {
			continue
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			f := finding{check: act.Analyzer.Name, diag: d, fset: fset, pos: fset.Position(d.Pos), end: fset.Position(d.End)}
			if !f.end.IsValid() {
				f.end = f.pos
			}
			if d.Category == lease.SuppressedCategory && len(d.Related) > 0 {
				f.suppressed = &d.Related[0]
			}
			k := key{f.pos, f.check, d.Message}
			if !seen[k] {
				seen[k] = true
				findings = append(findings, f)
			}
		}
	}
	slices.SortFunc(findings, func(a, b finding) int {
		return cmp.Or(cmp.Compare(a.pos.Filename, b.pos.Filename), cmp.Compare(a.pos.Offset, b.pos.Offset),
			cmp.Compare(a.check, b.check), cmp.Compare(a.diag.Message, b.diag.Message))
	})
	return findings
}

// relative returns file relative to dir when it is inside dir, as go vet
// prints paths, and file otherwise.
func relative(dir, file string) string {
	if dir == "" {
		return file
	}
	rel, err := filepath.Rel(dir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return rel
}

// printText prints f as go vet does, file:line:col: message, with the file
// relative to cwd, then its related positions indented below it, as
// staticcheck prints them (the other calls of a helper, the other writes of
// a function run under the lease), and with context lines of source around
// it if context is not negative. Suppressed findings are not printed.
func printText(w io.Writer, f finding, cwd string, context int) {
	if f.suppressed != nil {
		return
	}
	fmt.Fprintf(w, "%s:%d:%d: %s\n", relative(cwd, f.pos.Filename), f.pos.Line, f.pos.Column, f.diag.Message)
	for _, r := range f.diag.Related {
		pos := f.fset.Position(r.Pos)
		fmt.Fprintf(w, "\t%s:%d:%d: %s\n", relative(cwd, pos.Filename), pos.Line, pos.Column, r.Message)
	}
	if context >= 0 {
		printContext(w, f.pos.Filename, f.pos.Line-context, f.end.Line+context)
	}
}

// printContext prints lines from to to of file, numbered.
func printContext(w io.Writer, file string, from, to int) {
	r, err := os.Open(file)
	if err != nil {
		return
	}
	defer r.Close()
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan() && line <= to; line++ {
		if line >= from {
			fmt.Fprintf(w, "%d\t%s\n", line, sc.Text())
		}
	}
}
