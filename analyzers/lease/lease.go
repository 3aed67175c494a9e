package lease

import (
	_ "embed"
	"fmt"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/fencelint/fencelint/analyzers/internal/analysisdoc"
)

//go:embed doc.go
var doc string

// Analyzer computes the lease model of a package. It reports nothing itself;
// the fencelint checks require it and read its *Model.
var Analyzer = &analysis.Analyzer{
	Name:       "lease",
	Doc:        analysisdoc.Extract(doc, "lease"),
	URL:        "https://pkg.go.dev/github.com/fencelint/fencelint/analyzers/lease",
	Run:        run,
	Requires:   []*analysis.Analyzer{inspect.Analyzer, ctrlflow.Analyzer},
	ResultType: reflect.TypeFor[*Model](),
	FactTypes:  factTypes(),
}

func init() {
	// Off by default: go vet and golangci-lint print every diagnostic, so
	// silenced findings are only reported to drivers that ask (fencelint
	// -format sarif marks them as suppressions).
	Analyzer.Flags.Bool("suppressed", false, "also report findings silenced by a directive, with Category \"suppressed\"")
}

// reportSuppressed reports whether a's -suppressed flag is set (a is the
// lease analyzer running).
func reportSuppressed(a *analysis.Analyzer) bool {
	f := a.Flags.Lookup("suppressed")
	return f != nil && f.Value.String() == "true"
}

func run(pass *analysis.Pass) (m any, err error) {
	// fencelint must never take a build down: a bug in the model becomes an
	// analysis error naming the package, not a crash of go vet.
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("internal error in fencelint's lease model on package %s: %v (please report it)", pass.Pkg.Path(), r)
		}
	}()
	return build(pass), nil
}
