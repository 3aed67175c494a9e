// Package fencetest runs an analyzer on analysistest fixtures that may import
// the lock libraries and stores fencelint knows.
//
// Each analyzer keeps its own fixtures in testdata/src, as analysistest
// expects. fencetest assembles a temporary GOPATH from a copy of those
// fixtures and a copy of the shared stubs (analyzers/internal/stubs), so a
// fixture can import "go.etcd.io/etcd/client/v3/concurrency" or
// "github.com/redis/go-redis/v9" without the analyzer's package carrying
// its own stubs. Files are copied, never linked, and .golden files stay next
// to their sources, so RunWithSuggestedFixes finds them.
package fencetest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"

	"github.com/fencelint/fencelint/analyzers/internal/stubs"
)

// Run runs a on the packages named by patterns (import paths under the
// calling test's testdata/src), with the shared stubs importable, and
// checks the diagnostics against the fixtures' // want comments.
func Run(t testing.TB, a *analysis.Analyzer, patterns ...string) []*analysistest.Result {
	t.Helper()
	return analysistest.Run(t, gopath(t), a, patterns...)
}

// RunWithSuggestedFixes is Run, and also applies the suggested fixes and
// compares each fixed file with its .golden file.
func RunWithSuggestedFixes(t testing.TB, a *analysis.Analyzer, patterns ...string) []*analysistest.Result {
	t.Helper()
	return analysistest.RunWithSuggestedFixes(t, gopath(t), a, patterns...)
}

// RunWithPackages is Run with more packages importable: each entry of
// dirs copies a directory (relative to the calling test's directory), with
// its subdirectories, to the import path it is keyed by. A fixture can so
// import a conformance case's package, one source compiled here against
// the stubs and there against the real libraries.
func RunWithPackages(t testing.TB, a *analysis.Analyzer, dirs map[string]string, patterns ...string) []*analysistest.Result {
	t.Helper()
	root := gopath(t)
	for path, dir := range dirs {
		if err := copyTree(filepath.Join(root, "src", filepath.FromSlash(path)), os.DirFS(dir), dir); err != nil {
			t.Fatalf("fencetest: %v", err)
		}
	}
	return analysistest.Run(t, root, a, patterns...)
}

// gopath builds the temporary GOPATH for the calling test (the stubs plus
// a copy of ./testdata/src) and returns its root. The test fails at once if
// the tree cannot be built.
func gopath(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	if err := assemble(root, analysistest.TestData()); err != nil {
		t.Fatalf("fencetest: %v", err)
	}
	return root
}

// assemble fills root/src with the shared stubs and with the files under
// testdata/src. A fixture file at the same path as a stub file is an error:
// the fixture would silently replace the stub for every package in the test.
func assemble(root, testdata string) error {
	dst := filepath.Join(root, "src")
	if err := copyTree(dst, stubs.FS(), "shared stubs"); err != nil {
		return err
	}
	own := filepath.Join(testdata, "src")
	if _, err := os.Stat(own); err != nil {
		return fmt.Errorf("no fixtures: %w (put them in testdata/src/<pkg>)", err)
	}
	return copyTree(dst, os.DirFS(own), own)
}

// copyTree copies every regular file of src into dst, refusing to overwrite
// a file that is already there; from names src in errors.
func copyTree(dst string, src fs.FS, from string) error {
	return fs.WalkDir(src, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dst, filepath.FromSlash(name))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: %s is not a regular file; fixtures must be plain files", from, name)
		}
		if _, err := os.Lstat(target); err == nil {
			return fmt.Errorf("%s: %s collides with a shared stub of the same path; "+
				"change the stub in analyzers/internal/stubs instead", from, name)
		}
		data, err := fs.ReadFile(src, name)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// Load loads the packages patterns match, with their dependencies, syntax
// and embedded files' names, from the GOPATH tree root (see Tree), as
// analysistest loads fixtures; with tests, their test variants too. Any
// load, parse or type error fails the test.
func Load(t testing.TB, root string, tests bool, patterns ...string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedEmbedFiles,
		Dir:   root,
		Tests: tests,
		Env:   append(os.Environ(), "GOPATH="+root, "GO111MODULE=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatalf("fencetest: loading %v: %v", patterns, err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("fencetest: %d errors loading %v", n, patterns)
	}
	return pkgs
}

// Tree builds the calling test's temporary GOPATH (the stubs plus a copy of
// ./testdata/src), as Run does, and returns its root, for tests that load
// the fixtures themselves.
func Tree(t testing.TB) string {
	t.Helper()
	return gopath(t)
}
