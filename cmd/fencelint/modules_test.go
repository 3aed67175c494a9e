package main_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pgtotalsSource is the store both applications below implement their
// Totals interface with, in a package their svc does not import.
const pgtotalsSource = `package pgtotals

import (
	"context"
	"database/sql"
)

type Store struct{ DB *sql.DB }

func (s *Store) Save(ctx context.Context, id, total int64) error {
	_, err := s.DB.ExecContext(ctx, "UPDATE totals SET total = $1 WHERE id = $2", total, id)
	return err
}
`

// replacedModule is an application module, app, that replaces the module
// of its lock helper and its store, lib, with a directory next to it (as
// Atlas's cmd/atlas module replaces ariga.io/atlas, whose drivers take its
// migration lock). svc takes lib's advisory lock, writes directly, and
// writes through its own interface, implemented in lib's pgtotals, which
// only app's main imports.
var replacedModule = map[string]string{
	"app/go.mod": `module example.com/app

go 1.26

require example.com/lib v0.0.0

replace example.com/lib => ../lib
`,
	"app/svc/svc.go": `package svc

import (
	"context"
	"database/sql"

	"example.com/lib/locks"
)

// Totals is implemented in lib's pgtotals, which svc does not import.
type Totals interface {
	Save(ctx context.Context, id, total int64) error
}

func Recompute(ctx context.Context, db *sql.DB, totals Totals, id, total int64) error {
	unlock, err := locks.Acquire(ctx, db, id)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := db.ExecContext(ctx, "UPDATE totals SET stale = true WHERE id = $1", id); err != nil { // direct
		return err
	}
	return totals.Save(ctx, id, total) // through the interface
}
`,
	"app/cmd/app/main.go": `package main

import (
	"context"
	"database/sql"

	"example.com/app/svc"
	"example.com/lib/pgtotals"
)

func main() {
	db, _ := sql.Open("postgres", "")
	svc.Recompute(context.Background(), db, &pgtotals.Store{DB: db}, 1, 2)
}
`,
	"lib/go.mod": "module example.com/lib\n\ngo 1.26\n",
	"lib/locks/locks.go": `package locks

import (
	"context"
	"database/sql"
	"errors"
)

var ErrLocked = errors.New("locked")

// Acquire takes a session advisory lock on a connection of its own and
// returns the func that releases it.
func Acquire(ctx context.Context, db *sql.DB, id int64) (func() error, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	var ok bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", id).Scan(&ok); err != nil || !ok {
		conn.Close()
		return nil, ErrLocked
	}
	return func() error {
		defer conn.Close()
		_, err := conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", id)
		return err
	}, nil
}
`,
	"lib/pgtotals/pgtotals.go": pgtotalsSource,
}

// TestReplacedModule checks that a module the main module replaces with a
// directory is the user's own: its lock helper takes the lease in svc, and
// a call through svc's interface resolves to its implementation there.
func TestReplacedModule(t *testing.T) {
	root := writeFiles(t, t.TempDir(), replacedModule)
	app := filepath.Join(root, "app")
	svc := filepath.Join(app, "svc", "svc.go")
	want := []finding{
		{Analyzer: "unfencedwrite", File: "svc.go", Line: lineOf(t, svc, "// direct")},
		{Analyzer: "unfencedwrite", File: "svc.go", Line: lineOf(t, svc, "// through the interface")},
	}
	for _, pattern := range []string{"./svc", "./..."} {
		got := run(t, app, fencelintBin, "-json", pattern)
		findings, err := parseJSON(got.stdout)
		if got.code != 0 || err != nil {
			t.Fatalf("fencelint -json %s: exit code %d, %v\nstdout:\n%s\nstderr:\n%s", pattern, got.code, err, got.stdout, got.stderr)
		}
		var keys []finding
		for _, f := range findings {
			keys = append(keys, f.key())
			if f.Line == want[1].Line && !strings.Contains(f.Message, "via *pgtotals.Store.Save") {
				t.Errorf("%s: the finding through the interface does not name lib's implementation: %s", pattern, f)
			}
		}
		slices.SortFunc(keys, func(a, b finding) int { return a.Line - b.Line })
		if !slices.Equal(keys, want) {
			t.Errorf("fencelint -json %s: findings %v, want %v", pattern, findings, want)
		}
	}
}

// unverifiableModule is an application whose go.mod requires a module that
// no package imports and whose go.sum line for it is stale (a hash the
// module proxy, here a directory, no longer serves): go build and go vet
// ./... never look at it, but go list with the module path pattern
// (example.com/app/...) loads the whole module graph and stops on the
// checksum mismatch. svc writes through its own interface, implemented in
// pgtotals, which only main imports.
var unverifiableModule = map[string]string{
	"proxy/example.com/absent/@v/list":        "v1.0.0\n",
	"proxy/example.com/absent/@v/v1.0.0.info": `{"Version":"v1.0.0"}` + "\n",
	"proxy/example.com/absent/@v/v1.0.0.mod":  "module example.com/absent\n",
	"app/go.mod": `module example.com/app

go 1.26

require example.com/absent v1.0.0 // indirect
`,
	"app/go.sum": "example.com/absent v1.0.0/go.mod h1:TsTFsXBVHVK4HQ+UrFSsQEhBXZGCDqoY+cr+sUq5ZmA=\n",
	"app/svc/svc.go": `package svc

import (
	"context"
	"database/sql"
)

// Totals is implemented in pgtotals, which svc does not import.
type Totals interface {
	Save(ctx context.Context, id, total int64) error
}

func Recompute(ctx context.Context, db *sql.DB, totals Totals, id, total int64) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var ok bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", id).Scan(&ok); err != nil || !ok {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", id)
	return totals.Save(ctx, id, total) // through the interface
}
`,
	"app/cmd/app/main.go": `package main

import (
	"context"
	"database/sql"

	"example.com/app/pgtotals"
	"example.com/app/svc"
)

func main() {
	db, _ := sql.Open("postgres", "")
	svc.Recompute(context.Background(), db, &pgtotals.Store{DB: db}, 1, 2)
}
`,
	"app/pgtotals/pgtotals.go": pgtotalsSource,
}

// TestUnverifiableModule checks that a module in go.mod that no package
// needs, and that go.sum cannot vouch for, stops fencelint no more than it
// stops go vet, and that the implementations of svc's interface are still
// found in the packages svc does not import.
func TestUnverifiableModule(t *testing.T) {
	root := writeFiles(t, t.TempDir(), unverifiableModule)
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(filepath.Join(root, "proxy")))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOFLAGS", "-mod=mod -modcacherw") // a writable cache, so that the test can remove it
	app := filepath.Join(root, "app")
	svc := filepath.Join(app, "svc", "svc.go")
	got := run(t, app, fencelintBin, "-json", "./svc")
	findings, err := parseJSON(got.stdout)
	if got.code != 0 || err != nil {
		t.Fatalf("fencelint -json ./svc: exit code %d, %v\nstdout:\n%s\nstderr:\n%s", got.code, err, got.stdout, got.stderr)
	}
	if got.stderr != "" {
		t.Errorf("fencelint -json ./svc: stderr:\n%s", got.stderr)
	}
	want := finding{Analyzer: "unfencedwrite", File: "svc.go", Line: lineOf(t, svc, "// through the interface")}
	if len(findings) != 1 || findings[0].key() != want || !strings.Contains(findings[0].Message, "via *pgtotals.Store.Save") {
		t.Errorf("fencelint -json ./svc: findings %v, want one at %v naming *pgtotals.Store.Save", findings, want)
	}
}
