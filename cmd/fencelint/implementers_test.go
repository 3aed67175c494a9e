package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"
)

// implementerModule is a module whose analyzed package, svc, calls through
// its own interfaces; the other packages are candidates for the
// whole-module load, each kept or not for a reason its name gives.
var implementerModule = []struct {
	path    string
	imports []string
	source  string
}{
	{"svc", nil, `package svc

import "context"

type Totals interface {
	Save(ctx context.Context, id, total int64) error
}

func Run(t Totals, cache interface{ Flush(key string) }) {
	t.Save(context.Background(), 1, 2)
	cache.Flush("k")
}
`},
	// Declares an implementation.
	{"pgtotals", []string{"sqlhelp"}, `package pgtotals

import (
	"context"

	"example.com/m/sqlhelp"
)

type Store struct{}

func (s *Store) Save(ctx context.Context, id, total int64) error { return sqlhelp.Exec(ctx) }
`},
	// Imported by an implementation: its facts flow into Save.
	{"sqlhelp", nil, `package sqlhelp

import "context"

func Exec(ctx context.Context) error { return nil }
`},
	// Save with another signature: implements nothing svc calls.
	{"filetotals", nil, `package filetotals

type Store struct{}

func (Store) Save(id int64) error { return nil }
`},
	// Implements Totals through a type of the module it embeds.
	{"wrapped", []string{"pgtotals"}, `package wrapped

import pg "example.com/m/pgtotals"

type Logged struct{ *pg.Store }

func (Logged) Describe() string { return "" }
`},
	// Has Flush and embeds a type from outside the module, whose methods
	// the syntax cannot see: may implement the literal interface.
	{"cache", nil, `package cache

import "sync"

type Cache struct{ sync.Mutex }

func (c *Cache) Flush(key string) {}
`},
	// A generic implementation, and a method on a generic receiver.
	{"generic", nil, `package generic

type Box[T any] struct{ v T }

func (b *Box[T]) Flush(key string) {}
`},
	// Declares methods, none that svc's interfaces have.
	{"web", nil, `package web

type Handler struct{}

func (Handler) ServeHTTP() {}
`},
	// Does not parse: may implement anything.
	{"broken", nil, "package broken\n\nfunc (T) Save( {\n"},
}

func TestImplementerPackages(t *testing.T) {
	dir := t.TempDir()
	byPath := make(map[string]*packages.Package)
	var base, candidates []*packages.Package
	for _, p := range implementerModule {
		file := filepath.Join(dir, p.path, p.path+".go")
		if err := os.MkdirAll(filepath.Dir(file), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(p.source), 0o666); err != nil {
			t.Fatal(err)
		}
		path := "example.com/m/" + p.path
		pkg := &packages.Package{ID: path, PkgPath: path, Name: p.path, GoFiles: []string{file}, Imports: make(map[string]*packages.Package)}
		byPath[p.path] = pkg
		if p.path == "svc" {
			base = append(base, pkg)
		} else {
			candidates = append(candidates, pkg)
		}
	}
	for _, p := range implementerModule {
		for _, imp := range p.imports {
			byPath[p.path].Imports["example.com/m/"+imp] = &packages.Package{ID: "example.com/m/" + imp}
		}
	}
	want := []string{
		"example.com/m/broken",
		"example.com/m/cache",
		"example.com/m/generic",
		"example.com/m/pgtotals",
		"example.com/m/sqlhelp",
		"example.com/m/wrapped",
	}
	for range 3 { // the same answer each time, whatever the parse order
		if got := implementerPackages(base, candidates); !slices.Equal(got, want) {
			t.Fatalf("implementerPackages = %q, want %q", got, want)
		}
	}
	if got := implementerPackages(candidates[:1], candidates[1:]); len(got) != 0 {
		t.Errorf("with no interface in the analyzed packages: implementerPackages = %q, want none", got)
	}
}
