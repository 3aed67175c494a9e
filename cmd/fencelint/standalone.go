package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/fencelint/fencelint/analyzers"
	"github.com/fencelint/fencelint/analyzers/lease"
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
	format   string // text, json or sarif
	context  int    // lines of context around each finding, or -1
	tests    bool
	fix      bool // apply the suggested fixes
	diff     bool // print the suggested fixes as a diff, change nothing
	verbose  bool // say where the time went
	progress bool // show progress on stderr (a terminal)
	profiles profiles
	// schemaSrc says where to look for SQL schema files the code does not
	// embed (-schema, -findschema; schema.go), and schema is what they
	// hold, read once the packages are loaded.
	schemaSrc schemaSource
	schema    *lease.SchemaFact
}

// delegated lists the flags fencelint's own driver leaves to multichecker:
// go vet's protocol (-flags, -V), and debugging and tracing.
var delegated = []string{"flags", "V", "debug", "trace"}

// formats are the values of -format.
var formats = []string{"text", "json", "sarif"}

// parseStandalone parses the command line of a standalone run. It returns
// ok false when multichecker must run instead: under go vet (a .cfg file,
// -flags, -V) and for the other flags in delegated. A bad command line is
// reported on stderr as flag does, with the short usage.
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
	// The lease model every check shares has flags of its own
	// (-lease.testwrites: report writes in _test.go files too).
	lease.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		if f.Name != "suppressed" { // set by -format sarif
			fs.Var(f.Value, "lease."+f.Name, f.Usage)
		}
	})
	asJSON := fs.Bool("json", false, "print findings as JSON on stdout (same as -format json)")
	fs.StringVar(&run.format, "format", "text", "output format: text (stderr), json or sarif (stdout)")
	fs.IntVar(&run.context, "c", -1, "display offending line with this many lines of context")
	fs.BoolVar(&run.tests, "test", true, "indicates whether test files should be analyzed, too")
	fs.BoolVar(&run.fix, "fix", false, "apply the suggested fixes, then print the findings that remain")
	fs.BoolVar(&run.diff, "diff", false, "print the suggested fixes as a unified diff instead of applying them")
	fs.BoolVar(&run.verbose, "v", false, "print where the time went")
	fs.StringVar(&run.profiles.cpu, "cpuprofile", "", "write a CPU profile of the run to `file`")
	fs.StringVar(&run.profiles.mem, "memprofile", "", "write a heap profile to `file` when the analysis is done")
	fs.Var((*schemaPaths)(&run.schemaSrc.named), "schema", "read the unique keys of these SQL schema files or directories (comma-separated `paths`) the code does not embed")
	fs.BoolVar(&run.schemaSrc.discover, "findschema", true, "read the unique keys of the *.sql files under the main modules (and their git checkout) that the code does not embed")
	for _, name := range delegated {
		fs.Var(new(presence), name, "handled by multichecker")
	}
	for _, name := range []string{"source", "all"} {
		fs.Bool(name, false, "no effect (deprecated)")
	}
	fs.String("tags", "", "no effect (deprecated)")
	if err := fs.Parse(args); err != nil {
		return standaloneRun{}, true, err
	}
	run.patterns = fs.Args()
	if anySet(fs, delegated) || isVetUnit(run.patterns) {
		return standaloneRun{}, false, nil
	}
	if *asJSON {
		if anySet(fs, []string{"format"}) && run.format != "json" {
			return standaloneRun{}, true, commandLineError(fs, "-json and -format %s disagree; use one", run.format)
		}
		run.format = "json"
	}
	if !slices.Contains(formats, run.format) {
		return standaloneRun{}, true, commandLineError(fs, "-format %q: want one of %s", run.format, strings.Join(formats, ", "))
	}
	if (run.fix || run.diff) && run.format != "text" {
		return standaloneRun{}, true, commandLineError(fs, "-fix and -diff print text; they cannot be combined with -format %s", run.format)
	}
	if len(run.patterns) == 0 {
		return standaloneRun{}, true, commandLineError(fs, "no packages to analyze; try fencelint ./...")
	}
	run.checks = selectChecks(checks, enabled)
	run.schemaSrc.verbose = run.verbose
	return run, true, nil
}

// commandLineError prints a one-line error and the short usage, as flag
// does for a bad flag, and returns the error.
func commandLineError(fs *flag.FlagSet, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	fmt.Fprintln(fs.Output(), err)
	fs.Usage()
	return err
}

// isVetUnit reports whether the arguments after the flags are go vet's
// unit of work: one .cfg file.
func isVetUnit(patterns []string) bool {
	return len(patterns) == 1 && strings.HasSuffix(patterns[0], ".cfg")
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
		return exitUsage, true // the error and the usage are printed
	case !ok:
		return 0, false
	}
	run.progress = run.format == "text" && isTerminal(stderr)
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(standaloneGCPercent)
	}
	return runStandalone(run, stdout, stderr), true
}

// standaloneGCPercent is a standalone run's GC percent unless GOGC is set.
// The run keeps every package's syntax, types and analysis results until it
// reports, so most of its heap lives to the end, and at Go's default (100)
// the heap grows to twice the live heap before each collection: the peak
// is mostly headroom. At 50 it is about a quarter lower, for collections
// that cost little when so little of the heap is garbage (SpiceDB with its
// tests: 1.44 GiB peak at 100, 1.07 GiB at 50, CPU time the same within
// noise).
const standaloneGCPercent = 50

// runStandalone loads the packages and runs the checks on them, prints the
// findings and returns the exit code.
//
// Unlike multichecker, it does not type-check every dependency from source
// to run the checks on it for facts. Packages of the analyzed packages' own
// modules are loaded from source, so facts flow between them (a helper in
// another package of the module that writes is known at its call); other
// dependencies come from the compiler's export data, as for go vet. On a
// large module that is a fraction of the time and memory. go vet
// -vettool=fencelint, which caches per package, carries facts across every
// dependency. The packages loaded from source are analyzed as one program
// (analyzers.AnalyzeProgram): a call through an interface of the user's
// modules resolves to the implementations in any of them, wherever main
// wires them in.
func runStandalone(run standaloneRun, stdout, stderr io.Writer) int {
	times := &timings{start: time.Now()}
	if err := run.profiles.start(); err != nil {
		fmt.Fprintf(stderr, "fencelint: -cpuprofile: %v\n", err)
		return exitErrors
	}
	defer func() {
		if err := run.profiles.stop(); err != nil {
			fmt.Fprintf(stderr, "fencelint: -cpuprofile: %v\n", err)
		}
	}()
	prog := startProgress(stderr, run.progress, times.start)
	defer prog.stop()

	prog.phase("listing packages")
	requested, extra, unlisted, err := moduleProgram(run.patterns, run.tests)
	if err != nil {
		prog.stop()
		fmt.Fprintf(stderr, "fencelint: %v\n", err)
		return exitErrors
	}
	if unlisted != nil {
		fmt.Fprintf(stderr, "fencelint: warning: listing the packages of your modules: %v: calls through interfaces are resolved only to the types the named packages import\n", unlisted)
	}
	if len(requested) == 0 {
		prog.stop()
		fmt.Fprintf(stderr, "fencelint: warning: %s matched no packages\n", quoteAll(run.patterns))
		return exitErrors
	}
	prog.phase(fmt.Sprintf("loading %d packages", len(requested)+len(extra)))
	cfg := &packages.Config{Mode: packages.LoadSyntax | packages.NeedEmbedFiles | packages.NeedModule, Tests: run.tests}
	pkgs, err := packages.Load(cfg, append(slices.Clone(run.patterns), extra...)...)
	if err != nil {
		prog.stop()
		fmt.Fprintf(stderr, "fencelint: %v\n", err)
		return exitErrors
	}
	times.loaded = time.Now()
	prog.stop()
	pkgs, skipped := dropUnneededBroken(pkgs, requested)
	for _, path := range skipped {
		fmt.Fprintf(stderr, "fencelint: warning: %s does not build and no named package imports it: not analyzed, and calls through interfaces are not resolved to its types\n", path)
	}
	listEmbedded(pkgs)
	if run.schema, err = readSchema(run.schemaSrc, pkgs, requested, stderr); err != nil {
		fmt.Fprintf(stderr, "fencelint: %v\n", err)
		if errors.Is(err, errSchemaPath) {
			return exitUsage
		}
		return exitErrors
	}
	code := exitOK
	if printErrors(stderr, pkgs) > 0 {
		code = exitErrors
	}
	linkRoots(pkgs)
	checks := run.checks
	if run.format == "sarif" {
		// SARIF records silenced findings as suppressions.
		if err := lease.Analyzer.Flags.Set("suppressed", "true"); err != nil {
			fmt.Fprintf(stderr, "fencelint: %v\n", err)
			return exitErrors
		}
	}
	prog = startProgress(stderr, run.progress, times.start)
	defer prog.stop()
	checks = prog.count(checks, len(pkgs))
	roots := slices.DeleteFunc(slices.Clone(pkgs), func(p *packages.Package) bool { return !requested[p.PkgPath] })
	graph, summary, err := analyzers.AnalyzeProgram(checks, pkgs, roots, run.schema, nil)
	prog.stop()
	if err != nil {
		fmt.Fprintf(stderr, "fencelint: %v\n", err)
		return exitErrors
	}
	times.analyzed = time.Now()
	if err := run.profiles.writeHeap(); err != nil {
		fmt.Fprintf(stderr, "fencelint: -memprofile: %v\n", err)
		code = exitErrors
	}
	if printAnalysisErrors(stderr, graph) > 0 {
		code = exitErrors
	}
	graph.Roots = slices.DeleteFunc(graph.Roots, func(act *checker.Action) bool { return !requested[act.Package.PkgPath] })
	code = max(code, report(graph, run, stdout, stderr))
	if run.verbose {
		times.print(stderr, graph, summary, len(requested), len(pkgs))
	}
	return code
}

// report prints the findings in the requested form, applying or showing
// the fixes with -fix or -diff, and returns the exit code.
func report(graph *checker.Graph, run standaloneRun, stdout, stderr io.Writer) int {
	switch run.format {
	case "json":
		if err := graph.PrintJSON(stdout); err != nil {
			fmt.Fprintf(stderr, "fencelint: %v\n", err)
			return exitErrors
		}
		return exitOK
	case "sarif":
		if err := writeSARIF(stdout, run.checks, collect(graph)); err != nil {
			fmt.Fprintf(stderr, "fencelint: %v\n", err)
			return exitErrors
		}
		return exitOK
	}
	findings := collect(graph)
	code := exitOK
	if run.fix || run.diff {
		remaining, err := applyFixes(findings, run.diff, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "fencelint: %v\n", err)
			code = exitErrors
		}
		if !run.diff {
			findings = remaining
		}
	}
	cwd, _ := os.Getwd()
	for _, f := range findings {
		printText(stderr, f, cwd, run.context)
	}
	if len(findings) > 0 {
		return max(code, exitFindings)
	}
	return code
}

// quoteAll returns patterns quoted and joined, for messages.
func quoteAll(patterns []string) string {
	q := make([]string, len(patterns))
	for i, p := range patterns {
		q[i] = strconv.Quote(p)
	}
	return strings.Join(q, ", ")
}

// moduleProgram lists, from package metadata and syntax alone (no type
// checking), the packages patterns match (by package path) and the other
// packages of the user's modules to load from source: those they import,
// and, for a main module (one you work in) or a module it replaces with a
// directory, the packages that may implement an interface the requested
// packages call through (main wires them in; see implementerPackages),
// with what those import from the user's modules.
func moduleProgram(patterns []string, tests bool) (requested map[string]bool, extra []string, unlisted, err error) {
	base, requested, extra, owned, err := sameModuleDeps(patterns, tests)
	if err != nil {
		return requested, extra, nil, err
	}
	extra = append(extra, wrapperPackages(base)...)
	slices.Sort(extra)
	if len(owned) == 0 {
		return requested, extra, nil, nil
	}
	pkgs, unlisted := loadOwned(owned)
	loaded := make(map[string]bool)
	for _, p := range base {
		loaded[p.PkgPath] = true
	}
	var candidates []*packages.Package
	for _, p := range pkgs {
		if !loaded[p.PkgPath] && len(p.Errors) == 0 {
			loaded[p.PkgPath] = true
			candidates = append(candidates, p)
		}
	}
	extra = append(extra, implementerPackages(base, candidates)...)
	slices.Sort(extra)
	return requested, extra, unlisted, nil
}

// loadOwned loads the packages of the user's modules, by name only, for
// implementerPackages. A module path pattern (example.com/app/...) makes go
// list load the whole module graph, which fails on a go.sum line gone
// stale for a module no package needs, where go build and go vet ./...
// succeed: the modules are then named by their directories. Should they
// still not load, the program is analyzed without the implementations it
// does not import (the error says why): fewer calls through interfaces are
// resolved, and nothing else changes.
func loadOwned(owned []*packages.Module) ([]*packages.Package, error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports}
	var byPath, byDir []string
	for _, m := range owned {
		byPath = append(byPath, m.Path+"/...")
		if m.Dir != "" {
			byDir = append(byDir, filepath.Join(m.Dir, "..."))
		}
	}
	pkgs, err := packages.Load(cfg, byPath...)
	if err != nil && len(byDir) == len(owned) {
		pkgs, err = packages.Load(cfg, byDir...)
	}
	return pkgs, err
}

// sameModuleDeps lists, from package metadata alone (no type checking), the
// packages patterns match (by package path) and the packages they import,
// directly or not, from the user's modules that the patterns do not match,
// and the modules among those that the user works in (owned: main modules
// and the directories they replace modules with). base holds both kinds of
// packages, with their files.
//
// The user's modules are the requested packages' own and the modules
// replaced by a directory (replace example.com/lib => ../lib): the user
// controls that source, often in the same repository (Atlas's cmd/atlas
// module replaces ariga.io/atlas, whose drivers take its migration lock),
// so what its functions and types do is known as for the main module's. A
// module required at a version is a library and comes from export data.
func sameModuleDeps(patterns []string, tests bool) (base []*packages.Package, requested map[string]bool, extra []string, owned []*packages.Module, err error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedModule | packages.NeedImports | packages.NeedDeps, Tests: tests}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, nil, nil, err
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
		if p.Module == nil || !modules[p.Module.Path] && !replacedByDir(p.Module) {
			return
		}
		if (p.Module.Main || replacedByDir(p.Module)) && !slices.ContainsFunc(owned, func(m *packages.Module) bool { return m.Path == p.Module.Path }) {
			owned = append(owned, p.Module)
		}
		base = append(base, p)
		if !requested[p.PkgPath] && !seen[p.PkgPath] {
			seen[p.PkgPath] = true
			extra = append(extra, p.PkgPath)
		}
	})
	slices.SortFunc(base, func(x, y *packages.Package) int { return strings.Compare(x.ID, y.ID) })
	slices.Sort(extra)
	slices.SortFunc(owned, func(x, y *packages.Module) int { return strings.Compare(x.Path, y.Path) })
	return base, requested, extra, owned, nil
}

// wrapperPackages lists the library packages to load from source beside the
// user's (base) because their module wraps a lock library. A module
// required at a version (a framework, a company's toolkit) one of whose
// packages that the user's packages import uses a catalogued lock library
// (lease.Role.LockLibrary: miso's redis.RLock around bsm/redislock) usually
// wraps the stores too (miso's dbquery.Query around GORM), and what those
// helpers do is known at the user's calls only from their source. Of such a
// module, the packages the user's packages import directly and that import
// a catalogued lock library or store are listed; they are analyzed for
// facts, their findings are not printed. A package the catalog names is
// read through its rows, and other libraries stay export data.
func wrapperPackages(base []*packages.Package) []string {
	user := make(map[string]bool)
	for _, p := range base {
		user[p.PkgPath] = true
	}
	known := make(map[string]lease.Role) // PackageRoles builds the catalog: once a path
	roles := func(path string) lease.Role {
		r, ok := known[path]
		if !ok {
			r = lease.PackageRoles(path)
			known[path] = r
		}
		return r
	}
	library := func(p *packages.Package) bool {
		return !user[p.PkgPath] && p.Module != nil && !p.Module.Main && !replacedByDir(p.Module) &&
			roles(p.PkgPath) == 0
	}
	uses := func(p *packages.Package, want func(lease.Role) bool) bool {
		for path := range p.Imports {
			if want(roles(path)) {
				return true
			}
		}
		return false
	}
	lockLibrary := lease.Role.LockLibrary
	lockOrStore := func(r lease.Role) bool { return r.LockLibrary() || r.Writes() }
	wrappers := make(map[string]bool) // module paths
	for _, p := range base {
		for _, imp := range p.Imports {
			if library(imp) && uses(imp, lockLibrary) {
				wrappers[imp.Module.Path] = true
			}
		}
	}
	var paths []string
	for _, p := range base {
		for _, imp := range p.Imports {
			if library(imp) && wrappers[imp.Module.Path] && uses(imp, lockOrStore) && !slices.Contains(paths, imp.PkgPath) {
				paths = append(paths, imp.PkgPath)
			}
		}
	}
	return paths
}

// replacedByDir reports whether the main module replaces m with a
// directory (replace example.com/lib => ../lib), not another version.
func replacedByDir(m *packages.Module) bool {
	return m.Replace != nil && m.Replace.Version == ""
}

// dropUnneededBroken removes from pkgs the packages that were loaded only
// for whole-program dispatch (neither named nor imported by a named one)
// and that do not build, or import one that does not: a broken corner of
// the module (say, a package embedding assets that are not built) must not
// fail a run over packages that never use it. It returns the kept packages
// and the paths of the dropped ones, sorted.
func dropUnneededBroken(pkgs []*packages.Package, requested map[string]bool) ([]*packages.Package, []string) {
	needed := make(map[*packages.Package]bool)
	var roots []*packages.Package
	for _, p := range pkgs {
		if requested[p.PkgPath] {
			roots = append(roots, p)
		}
	}
	packages.Visit(roots, nil, func(p *packages.Package) { needed[p] = true })
	broken := make(map[*packages.Package]bool)
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		broken[p] = len(p.Errors) > 0
		for _, imp := range p.Imports {
			broken[p] = broken[p] || broken[imp]
		}
	})
	var skipped []string
	kept := slices.DeleteFunc(slices.Clone(pkgs), func(p *packages.Package) bool {
		if needed[p] || !broken[p] {
			return false
		}
		if !slices.Contains(skipped, p.PkgPath) {
			skipped = append(skipped, p.PkgPath)
		}
		return true
	})
	slices.Sort(skipped)
	return kept, skipped
}

// listEmbedded adds each package's //go:embed files to its OtherFiles, the
// files an analyzer may read through Pass.ReadFile: fencelint reads SQL
// kept in embedded files there.
func listEmbedded(pkgs []*packages.Package) {
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, f := range p.EmbedFiles {
			if !slices.Contains(p.OtherFiles, f) {
				p.OtherFiles = append(p.OtherFiles, f)
			}
		}
	})
}

// printErrors prints the errors of pkgs and their dependencies, each once,
// with paths relative to the current directory, and returns how many there
// were. A package and its test variant share files, and so errors; and when
// the parser or type checker explains a package's errors, go list's copy of
// the compiler's report of them is left out. The type checker's "could not
// import C" explains nothing: cgo's own report, kept, says what failed (a
// missing C header, most often), and a hint says what to do.
func printErrors(stderr io.Writer, pkgs []*packages.Package) int {
	cwd, _ := os.Getwd()
	seen := make(map[string]bool)
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		explained := slices.ContainsFunc(p.Errors, func(e packages.Error) bool {
			return e.Kind != packages.ListError && !isCgoSymptom(e)
		})
		for _, e := range p.Errors {
			if explained && e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
				continue
			}
			msg := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				msg = relative(cwd, e.Pos) + ": " + msg
			}
			if header := missingHeader(e); header != "" {
				msg = strings.TrimRight(msg, "\n") + "\n" + fmt.Sprintf(
					"fencelint: cgo could not find the C header %s, so the package does not build: install the development package of the library that provides it (on Debian, apt-file search %s names it), then run fencelint again", header, header)
			}
			if !seen[msg] {
				seen[msg] = true
				fmt.Fprintln(stderr, msg)
			}
		}
	})
	return len(seen)
}

// isCgoSymptom reports whether e is the type checker's note that cgo did
// not run ("could not import C (no metadata for C)"), which says nothing of
// why.
func isCgoSymptom(e packages.Error) bool {
	return e.Kind == packages.TypeError && strings.Contains(e.Msg, "could not import C")
}

// missingHeaderRE matches a C compiler's report of a missing include file:
// gcc's ("fatal error: fuse.h: No such file or directory") or clang's
// ("fatal error: 'fuse.h' file not found").
var missingHeaderRE = regexp.MustCompile(`fatal error: (?:([^:\s']+\.h): No such file or directory|'([^']+\.h)' file not found)`)

// missingHeader returns the C header that cgo's report e says is missing,
// or "".
func missingHeader(e packages.Error) string {
	if e.Kind != packages.ListError {
		return ""
	}
	m := missingHeaderRE.FindStringSubmatch(e.Msg)
	if m == nil {
		return ""
	}
	return m[1] + m[2]
}

// printAnalysisErrors prints the analysis errors worth reading: an error in
// a package that failed to load is the load error again (printed already),
// and "failed prerequisites" repeats the error of the analysis it names. It
// returns how many actions failed.
func printAnalysisErrors(stderr io.Writer, graph *checker.Graph) int {
	failed := 0
	for act := range graph.All() {
		if act.Err == nil {
			continue
		}
		failed++
		if len(act.Package.Errors) > 0 || slices.ContainsFunc(act.Deps, func(d *checker.Action) bool { return d.Err != nil }) {
			continue
		}
		fmt.Fprintf(stderr, "fencelint: %s: %v\n", act.Package.PkgPath, act.Err)
	}
	return failed
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
