package analyzers

import (
	"cmp"
	"go/types"
	"slices"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/fencelint/fencelint/analyzers/lease"
)

// AnalyzeProgram runs checks on roots, as part of program: the packages
// loaded from source that make up the user's program (a standalone run over
// the user's modules), so that a call through an interface resolves to its
// implementations in the program even where the caller does not import
// them.
//
// It runs in two stages. The first computes the lease facts of every
// package of program, in one or more passes (SummarizeProgram);
// lease.NewProgram summarizes the methods that have facts; the second runs
// the checks on roots (and, for their facts, on the packages they import)
// with that summary. Every pass sees the packages in a fixed order, so the
// result is deterministic.
//
// files is the schema of SQL files the driver read beside the packages
// (lease.ReadSchemaFiles), or nil: every pass reads its unique keys.
func AnalyzeProgram(checks []*analysis.Analyzer, program, roots []*packages.Package, files *lease.SchemaFact, opts *checker.Options) (*checker.Graph, Summary, error) {
	prog, sum, err := SummarizeProgram(program, files, opts)
	if err != nil {
		return nil, sum, err
	}
	prog = prog.ForRoots(Paths(roots))
	if !prog.Empty() || prog.HandsOver() || prog.NodeLocalSQL() {
		checks = lease.WithProgram(checks, prog)
	}
	graph, err := checker.Analyze(checks, roots, opts)
	return graph, sum, err
}

// A Summary says how SummarizeProgram reached the program summary, for a
// user asking where the time went (fencelint -v).
type Summary struct {
	Passes  int           // summary passes run, at most maxPasses
	Settled bool          // the last pass changed nothing a further one would use
	Elapsed time.Duration // the passes' wall time
}

// SummarizeProgram runs the lease analyzer alone on pkgs and summarizes the facts
// it exported. It keeps no package's model (lease.FactAnalyzer), and each
// pass's results are dropped before the next starts, so they never add up
// in memory.
//
// A method may write only through another interface of the program (a
// manager whose goroutines write through the application's own KV client
// interface): the first pass, which knows no implementation, gives it no
// fact, so its callers through the manager's interface would see nothing.
// Each further pass, with the summary before it, resolves one more level
// of such interfaces, and costs a whole analysis of the program with
// dispatch (the first, knowing no implementation, is cheap). So a pass
// runs only when the one before found something to dispatch to and
// changed what a method called through an interface does
// (lease.Program.Settled), and at most maxPasses run: an escalation sweep
// whose write is three services deep (opsybot's Advance -> RunNow ->
// Reschedule) needs the third. The Summary it returns says how many ran,
// and whether the limit stopped them before the summary settled.
func SummarizeProgram(pkgs []*packages.Package, files *lease.SchemaFact, opts *checker.Options) (*lease.Program, Summary, error) {
	start := time.Now()
	prog, err := summarize(pkgs, lease.SeedProgram(typesOf(pkgs)), files, opts)
	sum := Summary{Passes: 1, Settled: err == nil && prog.Empty()}
	for err == nil && !sum.Settled && !prog.Empty() && sum.Passes < maxPasses {
		var next *lease.Program
		next, err = summarize(pkgs, prog, files, opts)
		if err != nil {
			break
		}
		sum.Passes++
		sum.Settled = next.Settled(prog)
		prog = next
	}
	sum.Elapsed = time.Since(start)
	return prog, sum, err
}

// maxPasses bounds the summary passes. Deeper chains exist (generated HTTP
// handlers over services over repositories; SpiceDB's and opsybot's
// programs have not settled after three passes), but each pass costs a
// whole analysis of the program.
const maxPasses = 3

// summarize runs the lease analyzer alone on pkgs, resolving calls
// through interfaces with prog (nil on the first pass), and summarizes the
// facts it exported.
func summarize(pkgs []*packages.Package, prog *lease.Program, files *lease.SchemaFact, opts *checker.Options) (*lease.Program, error) {
	facts := lease.FactAnalyzer(prog, files)
	graph, err := checker.Analyze([]*analysis.Analyzer{facts}, alone(pkgs), opts)
	if err != nil {
		return nil, err
	}
	var acts []*checker.Action
	for act := range graph.All() {
		if act.Analyzer == facts && act.IsRoot && act.Err == nil && act.Package.Types != nil {
			acts = append(acts, act)
		}
	}
	// A package and its test variant ("p [p.test]") share a path: the
	// package itself comes first, and counts.
	slices.SortFunc(acts, func(x, y *checker.Action) int {
		return cmp.Or(cmp.Compare(x.Package.PkgPath, y.Package.PkgPath), cmp.Compare(x.Package.ID, y.Package.ID))
	})
	units := make([]lease.ProgramPackage, len(acts))
	for i, act := range acts {
		units[i] = lease.ProgramPackage{Types: act.Package.Types, Fset: act.Package.Fset, Fact: act.ObjectFact,
			Files: act.Package.Syntax, Info: act.Package.TypesInfo}
		if schema := new(lease.SchemaFact); act.PackageFact(act.Package.Types, schema) {
			units[i].Schema = schema
		}
		if hands := new(lease.HandOffsFact); act.PackageFact(act.Package.Types, hands) {
			units[i].HandOffs = hands.HandOffs
		}
		if sets := new(lease.LeaderSetsFact); act.PackageFact(act.Package.Types, sets) {
			units[i].LeaderSets = sets.Sets
		}
	}
	return lease.NewProgram(units, files), nil
}

// Paths returns the import paths of pkgs, the roots a Program is made
// ready for (lease.Program.ForRoots).
func Paths(pkgs []*packages.Package) []string {
	out := make([]string, len(pkgs))
	for i, p := range pkgs {
		out[i] = p.PkgPath
	}
	return out
}

// alone returns shallow copies of pkgs that import only each other, so that
// the first pass analyzes the program's own packages and not every
// dependency a loader may have typed from source (the libraries'
// implementations are not the program's, and analyzing them would double
// the cost of a run).
func alone(pkgs []*packages.Package) []*packages.Package {
	copies := make(map[*packages.Package]*packages.Package, len(pkgs))
	out := make([]*packages.Package, len(pkgs))
	for i, p := range pkgs {
		c := *p
		copies[p], out[i] = &c, &c
	}
	for _, c := range out {
		imports := make(map[string]*packages.Package, len(c.Imports))
		for path, imp := range c.Imports {
			if ci, ok := copies[imp]; ok {
				imports[path] = ci
			}
		}
		c.Imports = imports
	}
	return out
}

// typesOf returns the type-checked packages of pkgs.
func typesOf(pkgs []*packages.Package) []*types.Package {
	var out []*types.Package
	for _, p := range pkgs {
		if p.Types != nil {
			out = append(out, p.Types)
		}
	}
	return out
}
