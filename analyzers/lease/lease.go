package lease

import (
	_ "embed"
	"fmt"
	"reflect"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/fencelint/fencelint/analyzers/internal/analysisdoc"
)

//go:embed doc.go
var doc string

// Analyzer computes the lease model of a package. It reports nothing itself;
// the fencelint checks require it and read its *Model (ModelOf).
var Analyzer = newAnalyzer(nil, nil)

// newAnalyzer returns a lease analyzer that resolves calls through
// interfaces with prog's implementations too (prog may be nil) and reads
// the unique keys of files, the schema files a standalone driver passed
// (may be nil).
func newAnalyzer(prog *Program, files *SchemaFact) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "lease",
		Doc:        analysisdoc.Extract(doc, "lease"),
		URL:        "https://pkg.go.dev/github.com/fencelint/fencelint/analyzers/lease",
		Run:        func(pass *analysis.Pass) (any, error) { return run(pass, prog, files) },
		ResultType: reflect.TypeFor[*Model](),
		FactTypes:  factTypes(),
	}
}

func init() {
	// Off by default: go vet and golangci-lint print every diagnostic, so
	// silenced findings are only reported to drivers that ask (fencelint
	// -format sarif marks them as suppressions).
	Analyzer.Flags.Bool("suppressed", false, "also report findings silenced by a directive, with Category \"suppressed\"")
	// Off by default: a write in a _test.go file sets up or inspects a
	// fixture, it is not production data that a stale holder can clobber.
	Analyzer.Flags.Bool("testwrites", false, "also treat store writes made in _test.go files as writes (by default they are test fixtures)")
}

// flagSet reports whether a's boolean flag name is set (a is the lease
// analyzer running).
func flagSet(a *analysis.Analyzer, name string) bool {
	f := a.Flags.Lookup(name)
	return f != nil && f.Value.String() == "true"
}

// reportSuppressed reports whether a's -suppressed flag is set (a is the
// lease analyzer running).
func reportSuppressed(a *analysis.Analyzer) bool { return flagSet(a, "suppressed") }

func run(pass *analysis.Pass, prog *Program, files *SchemaFact) (m any, err error) {
	// fencelint must never take a build down: a bug in the model becomes an
	// analysis error naming the package, not a crash of go vet.
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("internal error in fencelint's lease model on package %s: %v (please report it)", pass.Pkg.Path(), r)
		}
	}()
	return build(pass, prog, files), nil
}

// WithProgram returns copies of checks that read a lease model which also
// resolves calls through interfaces to prog's implementations, for a
// standalone run over a whole program. The copies share one lease analyzer.
func WithProgram(checks []*analysis.Analyzer, prog *Program) []*analysis.Analyzer {
	lease := newAnalyzer(prog, prog.files)
	lease.Flags = Analyzer.Flags // the same -suppressed flag
	out := make([]*analysis.Analyzer, len(checks))
	for i, a := range checks {
		c := *a
		c.Requires = slices.Clone(a.Requires)
		for j, req := range c.Requires {
			if req == Analyzer {
				c.Requires[j] = lease
			}
		}
		out[i] = &c
	}
	return out
}

// FactAnalyzer returns a lease analyzer that exports the facts Analyzer
// exports and returns no model, for a pass that reads only facts (a
// standalone run's summary passes, analyzers.SummarizeProgram): the
// checker keeps every result until its run ends, and a model holds its
// package's SSA program. prog is the summary of the pass before, or nil
// for the first; files are the schema files the driver passed, or nil (see
// ReadSchemaFiles).
func FactAnalyzer(prog *Program, files *SchemaFact) *analysis.Analyzer {
	a := newAnalyzer(prog, files)
	a.Flags = Analyzer.Flags // the same -testwrites flag
	a.ResultType = nil
	a.Run = func(pass *analysis.Pass) (any, error) {
		_, err := run(pass, prog, files)
		return nil, err
	}
	return a
}

// ModelOf returns the lease model of pass's package, from whichever lease
// analyzer (Analyzer, or one WithProgram made) the pass's analyzer requires.
func ModelOf(pass *analysis.Pass) *Model {
	for _, r := range pass.ResultOf {
		if m, ok := r.(*Model); ok {
			return m
		}
	}
	return nil
}
