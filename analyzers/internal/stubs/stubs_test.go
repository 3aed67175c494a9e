package stubs_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/fencelint/fencelint/analyzers/internal/stubs"
)

// TestStubsTypeCheck loads every stub package in GOPATH mode, as
// analysistest does, and fails on any parse or type error: a fixture must
// never fail because a stub does not compile.
func TestStubsTypeCheck(t *testing.T) {
	paths := stubPackages(t)
	if len(paths) < 20 {
		t.Fatalf("found only %d stub packages: %v", len(paths), paths)
	}
	gopath, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Dir:  filepath.Join(gopath, "src"),
		Env:  append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOWORK=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != len(paths) {
		t.Errorf("loaded %d packages, want %d", len(pkgs), len(paths))
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
	})
}

// stubPackages lists the import paths of the directories holding .go files.
func stubPackages(t *testing.T) []string {
	var paths []string
	err := fs.WalkDir(stubs.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && path.Ext(name) == ".go" {
			if dir := path.Dir(name); !slices.Contains(paths, dir) {
				paths = append(paths, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// TestStubsNeverPanic keeps stub bodies to zero values: ctrlflow treats a
// function whose body panics as never returning, which would make every
// fixture line after a stub call dead code.
func TestStubsNeverPanic(t *testing.T) {
	fset := token.NewFileSet()
	err := fs.WalkDir(stubs.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(name) != ".go" {
			return err
		}
		src, err := fs.ReadFile(stubs.FS(), name)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
					t.Errorf("%s: a stub body panics; return zero values instead", fset.Position(call.Pos()))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
