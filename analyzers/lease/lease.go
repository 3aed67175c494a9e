package lease

import (
	_ "embed"
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

func run(pass *analysis.Pass) (any, error) {
	return build(pass), nil
}
