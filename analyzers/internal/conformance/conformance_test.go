package conformance

import (
	"flag"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/fencelint/fencelint/analyzers"
	"github.com/fencelint/fencelint/analyzers/internal/fencetest"
	"github.com/fencelint/fencelint/analyzers/lease"
)

// moduleDir is the nested conformance module, relative to this package;
// legacyDir is the module of forks and older import paths (lease.Forks),
// which needs older gRPC than the main module's libraries build with.
const (
	moduleDir = "../../../testdata/conformance"
	legacyDir = "../../../testdata/conformance/legacy"
)

// printAll logs every diagnostic, matched or not, for writing new cases:
// go test ./analyzers/internal/conformance/ -run TestConformance/expectations -v -all
var printAll = flag.Bool("all", false, "log every diagnostic the checks report on the conformance module")

// TestConformance downloads the conformance modules' dependencies, loads
// and analyzes their cases batch by batch, comparing the findings with
// their // want expectations; then checks the catalog (rows and forks)
// and the stubs against the real packages the batches loaded.
func TestConformance(t *testing.T) {
	m := checkModule(t, "expectations", moduleDir, 10)
	legacy := checkModule(t, "legacy", legacyDir, len(lease.Forks())/2)

	t.Run("catalog", func(t *testing.T) { checkCatalog(t, m, legacy) })
	t.Run("forks", func(t *testing.T) { checkForks(t, m, legacy) })
	t.Run("spawners", func(t *testing.T) { checkSpawners(t, m) })
	t.Run("stubs", func(t *testing.T) { checkStubs(t, m, legacy) })
}

// checkModule downloads the dependencies of the module in dir, which must
// have at least minRoots packages, and checks the expectations of its
// cases one batch at a time, in subtests name/BATCH. Only one batch's
// syntax, types and analysis are alive at a time: analyzing every case as
// one program peaked at 17.4 GB under -race. It returns the types of every
// package the batches loaded, for the catalog and stub checks.
func checkModule(t *testing.T, name, dir string, minRoots int) *module {
	t.Helper()
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	downloadModules(t, dir)
	m := &module{dir: dir}
	seen := make(map[string]bool)
	wants := 0
	for _, b := range planBatches(t, dir, minRoots) {
		// Drop the last batch's packages and analysis before loading the
		// next, and give the memory back: peak RSS is one batch's.
		debug.FreeOSMemory()
		wants += checkBatch(t, name, dir, b, m, seen)
	}
	if wants == 0 {
		t.Fatalf("the module in %s has no // want comments", dir)
	}
	return m
}

// downloadModules runs go mod download in dir, so that a fresh CI machine
// fetches the real libraries from the module proxy. It fails loudly when
// the proxy is unreachable: the suite is worthless without the real code.
func downloadModules(t *testing.T, dir string) {
	t.Helper()
	start := time.Now()
	if err := download(dir, nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("go mod download: %s", time.Since(start).Round(time.Millisecond))
}

// download runs go mod download in dir with extra environment settings and
// returns an error that says what the suite needs when it fails.
func download(dir string, env []string) error {
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly"), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go mod download in %s failed: %v\n%s\n"+
			"the conformance suite compiles against the real lock libraries and needs the Go module proxy "+
			"(GOPROXY=%s); it does not skip", dir, err, out, goEnv("GOPROXY"))
	}
	return nil
}

func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(out))
}

// checkBatch loads the batch b of the module in dir and checks its
// expectations in the subtest name/BATCH. It adds the types of the
// packages it loaded that m does not have yet (seen) to m, and returns the
// number of expectations.
func checkBatch(t *testing.T, name, dir string, b *batch, m *module, seen map[string]bool) int {
	t.Helper()
	start := time.Now()
	loaded := loadBatch(t, dir, b)
	t.Logf("%s: loaded %d packages (%d in the module): %s",
		b.name, len(loaded.all), len(loaded.roots), time.Since(start).Round(time.Millisecond))
	wants := 0
	t.Run(name+"/"+b.name, func(t *testing.T) { wants = checkExpectations(t, loaded) })
	for _, p := range loaded.all {
		if p.Types != nil && !seen[p.PkgPath] {
			seen[p.PkgPath] = true
			m.types = append(m.types, p.Types)
		}
	}
	return wants
}

// A module is a conformance module after its batches ran: the types of
// every package they loaded, one per import path (the syntax and analysis
// results are dropped batch by batch).
type module struct {
	dir   string
	types []*types.Package
}

// A loadedBatch is a batch loaded from source.
type loadedBatch struct {
	dir   string
	roots []*packages.Package // the module's own packages in the batch
	all   []*packages.Package // roots and every dependency
}

// loadBatch loads the batch's packages with their dependencies from
// source, as the checker needs for facts, and fails on any load, parse or
// type error: the conformance code must compile against the real modules.
func loadBatch(t *testing.T, dir string, b *batch) *loadedBatch {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax | packages.NeedModule | packages.NeedEmbedFiles,
		Dir:  dir,
		Env:  append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly"),
	}
	roots, err := packages.Load(cfg, b.roots...)
	if err != nil {
		t.Fatalf("loading %s from %s: %v", b.name, dir, err)
	}
	var got []string
	for _, p := range roots {
		got = append(got, p.PkgPath)
	}
	slices.Sort(got)
	if !slices.Equal(got, b.roots) {
		t.Fatalf("loading %s: got packages %v, want %v", b.name, got, b.roots)
	}
	// As the standalone driver does, list //go:embed files among each
	// package's other files, so the analyzers may read embedded SQL.
	for _, p := range roots {
		fencetest.ListEmbedFiles(p)
	}
	lb := &loadedBatch{dir: dir, roots: roots}
	var errs []string
	packages.Visit(roots, nil, func(p *packages.Package) {
		lb.all = append(lb.all, p)
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		t.Fatalf("the conformance module does not load cleanly (%d errors):\n%s", len(errs), strings.Join(first(errs, 30), "\n"))
	}
	return lb
}

// checkExpectations runs every fencelint analyzer on the batch as one
// program, as a standalone run does, and compares the diagnostics with the
// // want comments of its packages. It returns the number of expectations.
func checkExpectations(t *testing.T, m *loadedBatch) int {
	want := expectations(t, m)
	start := time.Now()
	graph, _, err := analyzers.AnalyzeProgram(analyzers.All(), m.roots, m.roots, nil, &checker.Options{})
	if err != nil {
		t.Fatalf("checker: %v", err)
	}
	t.Logf("analysis: %s", time.Since(start).Round(time.Millisecond))
	for act := range graph.All() {
		if act.Err != nil {
			t.Errorf("analysis error: %s: %v", act, act.Err)
		}
	}
	counts := make(map[string]*tally)
	count := func(name string) *tally {
		if counts[name] == nil {
			counts[name] = new(tally)
		}
		return counts[name]
	}
	for _, e := range want.All() {
		count(e.Analyzer).expected++
	}
	var problems []string
	for _, act := range graph.Roots {
		for _, d := range act.Diagnostics {
			pos := act.Package.Fset.Position(d.Pos)
			name := act.Analyzer.Name
			if *printAll {
				t.Logf("%s: %s: %s", m.rel(pos), name, d.Message)
			}
			if want.Match(pos, name, d.Message) {
				count(name).matched++
				continue
			}
			count(name).unexpected++
			problems = append(problems, fmt.Sprintf("%s: unexpected %s diagnostic: %s", m.rel(pos), name, d.Message))
		}
	}
	for _, e := range want.Unmatched() {
		problems = append(problems, fmt.Sprintf("%s: missing %s diagnostic matching %q", m.rel(e.Pos), e.Analyzer, e.Re))
	}
	slices.Sort(problems)
	for _, p := range problems {
		t.Error(p)
	}
	for _, name := range sortedKeys(counts) {
		c := counts[name]
		t.Logf("%-16s expected %3d, matched %3d, unexpected %3d", name, c.expected, c.matched, c.unexpected)
	}
	return len(want.All())
}

type tally struct{ expected, matched, unexpected int }

// expectations reads the // want comments of the batch's packages, which
// must all be ANALYZER:"REGEXP" items naming one of analyzers.All().
func expectations(t *testing.T, m *loadedBatch) *fencetest.Wants {
	known := make(map[string]bool)
	for _, a := range analyzers.All() {
		known[a.Name] = true
	}
	want := fencetest.ReadWants(m.roots, func(pos token.Position, err error) {
		t.Errorf("%s: malformed want comment: %v", m.rel(pos), err)
	})
	for _, e := range want.All() {
		switch {
		case e.Analyzer == "":
			t.Errorf("%s: want %q names no analyzer; write ANALYZER:\"REGEXP\"", m.rel(e.Pos), e.Re)
		case !known[e.Analyzer]:
			t.Errorf("%s: want names %q, which is not one of analyzers.All()", m.rel(e.Pos), e.Analyzer)
		}
	}
	return want
}

// rel prints pos relative to the module directory.
func (m *loadedBatch) rel(pos token.Position) string {
	name := pos.Filename
	if r, err := filepath.Rel(m.dir, name); err == nil {
		name = r
	}
	return fmt.Sprintf("%s:%d", name, pos.Line)
}

func first(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("... and %d more", len(s)-n))
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
