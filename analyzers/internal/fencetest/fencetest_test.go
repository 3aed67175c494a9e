package fencetest

import (
	"go/ast"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// acquires is a test analyzer: it reports calls to methods named Lock or
// LockContext declared in a stub package, and offers a fix that marks them.
var acquires = &analysis.Analyzer{
	Name:     "acquires",
	Doc:      "acquires: reports lock calls into the shared stubs (fencetest's own test)",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		for n := range ins.PreorderSeq((*ast.CallExpr)(nil)) {
			call := n.(*ast.CallExpr)
			fn := typeutil.StaticCallee(pass.TypesInfo, call)
			if fn == nil || fn.Pkg() == pass.Pkg || (fn.Name() != "Lock" && fn.Name() != "LockContext") {
				continue
			}
			pass.Report(analysis.Diagnostic{
				Pos:     call.Pos(),
				Message: "acquires via " + fn.FullName(),
				SuggestedFixes: []analysis.SuggestedFix{{
					Message:   "Mark the lease",
					TextEdits: []analysis.TextEdit{{Pos: call.Pos(), End: call.Pos(), NewText: []byte("/* lease */ ")}},
				}},
			})
		}
		return nil, nil
	},
}

func TestRunSeesStubsAndFixtures(t *testing.T) {
	results := Run(t, acquires, "fencetestcase")
	if len(results) != 1 || len(results[0].Diagnostics) != 2 {
		t.Fatalf("got %d results, want 1 with 2 diagnostics", len(results))
	}
}

func TestRunWithSuggestedFixesFindsGoldenFiles(t *testing.T) {
	RunWithSuggestedFixes(t, acquires, "fencetestcase")
}

func TestRunWithPackagesCopiesThem(t *testing.T) {
	results := RunWithPackages(t, acquires, map[string]string{"example.com/leases": "testdata/shared/leases"}, "sharedcase")
	if len(results) != 1 || len(results[0].Diagnostics) != 1 {
		t.Fatalf("got %d results, want 1 with 1 diagnostic", len(results))
	}
}

func TestAssemble(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string // testdata/src-relative path -> content
		wantErr string            // "" for success
		want    []string          // files that must exist under root/src
	}{
		{
			name:  "fixtures and golden files next to the stubs",
			files: map[string]string{"p/p.go": "package p\n", "p/p.go.golden": "package p\n"},
			want: []string{
				"p/p.go", "p/p.go.golden",
				"go.etcd.io/etcd/client/v3/concurrency/mutex.go",
				"github.com/redis/go-redis/v9/commands.go",
			},
		},
		{
			name:    "a fixture may not replace a stub",
			files:   map[string]string{"github.com/redis/go-redis/v9/commands.go": "package redis\n"},
			wantErr: "collides with a shared stub",
		},
		{
			name:    "no testdata/src",
			wantErr: "no fixtures",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			testdata := t.TempDir()
			for name, content := range tt.files {
				writeFile(t, filepath.Join(testdata, "src", name), content)
			}
			root := t.TempDir()
			err := assemble(root, testdata)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("assemble: got error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("assemble: %v", err)
			}
			for _, name := range tt.want {
				info, err := os.Lstat(filepath.Join(root, "src", name))
				if err != nil {
					t.Errorf("missing %s: %v", name, err)
				} else if !info.Mode().IsRegular() {
					t.Errorf("%s is %v, want a copied regular file", name, info.Mode())
				}
			}
		})
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
