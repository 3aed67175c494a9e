package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Exit codes of a standalone run, as multichecker's (see the package comment).
const (
	exitErrors   = 1
	exitFindings = 3
)

// A standaloneRun is what the command line asks of a standalone run.
type standaloneRun struct {
	checks   []*analysis.Analyzer // the enabled checks
	patterns []string
	json     bool
	context  int // lines of context around each finding, or -1
	tests    bool
}

// delegated lists the flags fencelint's own driver leaves to multichecker:
// go vet's protocol (-flags, -V), fixes, and debugging and profiling.
var delegated = []string{"flags", "V", "fix", "diff", "debug", "cpuprofile", "memprofile", "trace"}

// parseStandalone parses the command line of a standalone run. It returns
// ok false when multichecker must run instead: under go vet (a .cfg file,
// -flags, -V), for "help", and for the other flags in delegated. A bad
// command line is reported on stderr as flag does, with the short usage.
func parseStandalone(args []string, checks []*analysis.Analyzer, stderr io.Writer) (run standaloneRun, ok bool, err error) {
	fs := flag.NewFlagSet("fencelint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { usage(stderr, checks) }
	enabled := make([]*triState, len(checks))
	for i, a := range checks {
		enabled[i] = new(triState)
		fs.Var(enabled[i], a.Name, fmt.Sprintf("enable %q analysis", a.Name))
		a.Flags.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, a.Name+"."+f.Name, f.Usage) })
	}
	fs.BoolVar(&run.json, "json", false, "emit JSON output")
	fs.IntVar(&run.context, "c", -1, "display offending line with this many lines of context")
	fs.BoolVar(&run.tests, "test", true, "indicates whether test files should be analyzed, too")
	for _, name := range delegated {
		fs.Var(new(presence), name, "handled by multichecker")
	}
	for _, name := range []string{"source", "v", "all"} {
		fs.Bool(name, false, "no effect (deprecated)")
	}
	fs.String("tags", "", "no effect (deprecated)")
	if err := fs.Parse(args); err != nil {
		return standaloneRun{}, true, err
	}
	run.patterns = fs.Args()
	if anySet(fs, delegated) || isVetOrHelp(run.patterns) {
		return standaloneRun{}, false, nil
	}
	run.checks = selectChecks(checks, enabled)
	return run, true, nil
}

// isVetOrHelp reports whether the arguments after the flags are go vet's
// unit (one .cfg file), multichecker's "help", or missing (multichecker
// prints its usage).
func isVetOrHelp(patterns []string) bool {
	return len(patterns) == 0 || patterns[0] == "help" ||
		len(patterns) == 1 && strings.HasSuffix(patterns[0], ".cfg")
}

// anySet reports whether any of the named flags was set on the command line.
func anySet(fs *flag.FlagSet, names []string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || slices.Contains(names, f.Name) })
	return set
}

// selectChecks applies the -NAME flags as multichecker does: if any is
// true, only those checks run; otherwise every check but those set false.
func selectChecks(checks []*analysis.Analyzer, enabled []*triState) []*analysis.Analyzer {
	only := slices.ContainsFunc(enabled, func(ts *triState) bool { return *ts == setTrue })
	var keep []*analysis.Analyzer
	for i, a := range checks {
		if only && *enabled[i] == setTrue || !only && *enabled[i] != setFalse {
			keep = append(keep, a)
		}
	}
	return keep
}

// standaloneCommand runs fencelint standalone if args asks for it (see
// parseStandalone), and reports whether it did, and the exit code.
func standaloneCommand(args []string, checks []*analysis.Analyzer, stdout, stderr io.Writer) (code int, handled bool) {
	run, ok, err := parseStandalone(args, checks, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK, true
	case err != nil:
		return exitUsage, true // flag printed the error and the usage
	case !ok:
		return 0, false
	}
	return runStandalone(run, stdout, stderr), true
}

// runStandalone loads the packages and runs the checks on them, printing
// the findings as multichecker does, and returns the exit code.
//
// Unlike multichecker, it does not type-check every dependency from source
// to run the checks on it for facts. Packages of the analyzed packages' own
// modules are loaded from source, so facts flow between them (a helper in
// another package of the module that writes is known at its call); other
// dependencies come from the compiler's export data, as for go vet. On a
// large module that is a fraction of the time and memory. go vet
// -vettool=fencelint, which caches per package, carries facts across every
// dependency.
func runStandalone(run standaloneRun, stdout, stderr io.Writer) int {
	requested, extra, err := sameModuleDeps(run.patterns, run.tests)
	if err != nil {
		fmt.Fprintf(stderr, "fencelint: %v\n", err)
		return exitErrors
	}
	cfg := &packages.Config{Mode: packages.LoadSyntax, Tests: run.tests}
	pkgs, err := packages.Load(cfg, append(slices.Clone(run.patterns), extra...)...)
	if err != nil {
		fmt.Fprintf(stderr, "fencelint: %v\n", err)
		return exitErrors
	}
	code := exitOK
	if printErrors(stderr, pkgs) > 0 {
		code = exitErrors
	}
	linkRoots(pkgs)
	graph, err := checker.Analyze(run.checks, pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "fencelint: %v\n", err)
		return exitErrors
	}
	graph.Roots = slices.DeleteFunc(graph.Roots, func(act *checker.Action) bool { return !requested[act.Package.PkgPath] })
	return max(code, printFindings(graph, run, stdout, stderr))
}

// sameModuleDeps lists, from package metadata alone (no type checking), the
// packages patterns match (by package path) and the packages they import,
// directly or not, from their own modules that the patterns do not match.
func sameModuleDeps(patterns []string, tests bool) (requested map[string]bool, extra []string, err error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedModule | packages.NeedImports | packages.NeedDeps, Tests: tests}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, err
	}
	requested = make(map[string]bool)
	modules := make(map[string]bool)
	seen := make(map[string]bool)
	for _, p := range pkgs {
		requested[p.PkgPath] = true
		if p.Module != nil {
			modules[p.Module.Path] = true
		}
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Module != nil && modules[p.Module.Path] && !requested[p.PkgPath] && !seen[p.PkgPath] {
			seen[p.PkgPath] = true
			extra = append(extra, p.PkgPath)
		}
	})
	slices.Sort(extra)
	return requested, extra, nil
}

// printErrors prints the errors of pkgs and their dependencies, as
// packages.PrintErrors does but on stderr, and returns how many there were.
func printErrors(stderr io.Writer, pkgs []*packages.Package) int {
	n := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, err := range p.Errors {
			fmt.Fprintln(stderr, err)
			n++
		}
	})
	return n
}

// linkRoots keeps, among each loaded package's imports, only the packages
// that were loaded from source, so that the checker runs its fact-producing
// passes on those and not on packages whose types come from export data
// (it would find no syntax there).
func linkRoots(pkgs []*packages.Package) {
	roots := make(map[string]*packages.Package, len(pkgs))
	for _, p := range pkgs {
		roots[p.ID] = p
	}
	for _, p := range pkgs {
		imports := make(map[string]*packages.Package)
		for path, imp := range p.Imports {
			if root, ok := roots[imp.ID]; ok {
				imports[path] = root
			}
		}
		p.Imports = imports
	}
}

// printFindings prints the findings, as text on stderr or as JSON on
// stdout, and returns the exit code: with -json, 0; otherwise 1 if an
// analysis failed, 3 if there are findings.
func printFindings(graph *checker.Graph, run standaloneRun, stdout, stderr io.Writer) int {
	if run.json {
		if err := graph.PrintJSON(stdout); err != nil {
			fmt.Fprintf(stderr, "fencelint: %v\n", err)
			return exitErrors
		}
		return exitOK
	}
	if err := graph.PrintText(stderr, run.context); err != nil {
		fmt.Fprintf(stderr, "fencelint: %v\n", err)
		return exitErrors
	}
	for act := range graph.All() {
		if act.Err != nil { // PrintText printed it
			return exitErrors
		}
	}
	// graph.Roots holds only the requested packages' actions, not those of
	// the packages loaded from source for their facts.
	for _, act := range graph.Roots {
		if len(act.Diagnostics) > 0 {
			return exitFindings
		}
	}
	return exitOK
}

// A triState is a boolean flag that knows whether it was set, so that
// -NAME (only these) and -NAME=false (all but these) can be told apart from
// no flag at all.
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (ts *triState) IsBoolFlag() bool { return true }

func (ts *triState) String() string { return strconv.FormatBool(ts != nil && *ts != setFalse) }

func (ts *triState) Set(value string) error {
	b, err := strconv.ParseBool(value)
	if err != nil {
		return errors.New("want true or false")
	}
	*ts = setFalse
	if b {
		*ts = setTrue
	}
	return nil
}

// presence is a flag that takes any value, or none, and only records that
// it was given: its meaning is multichecker's.
type presence struct{ set bool }

func (p *presence) IsBoolFlag() bool   { return true }
func (p *presence) String() string     { return "" }
func (p *presence) Set(s string) error { p.set = true; return nil }
