package main_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// wrapperModule is an application that takes its locks and writes its
// rows through a framework required at a version (vendored here, as the
// module proxy would serve it): toolkit's rlock wraps bsm/redislock in a
// lock object whose Lock and Unlock keep the lease in a field, and its dbq
// runs the statements it is handed, trimmed first, on database/sql.
// toolkit's cfg imports neither and is no wrapper. The locks in app run
// through rlock only, so a run that reads the framework from export data
// sees no lease at all.
var wrapperModule = map[string]string{
	"app/go.mod": `module example.com/app

go 1.26

require (
	example.com/toolkit v1.2.0
	github.com/bsm/redislock v0.9.4
)
`,
	"app/vendor/modules.txt": `# example.com/toolkit v1.2.0
## explicit; go 1.26
example.com/toolkit/cfg
example.com/toolkit/dbq
example.com/toolkit/rlock
# github.com/bsm/redislock v0.9.4
## explicit; go 1.26
github.com/bsm/redislock
`,
	"app/vendor/github.com/bsm/redislock/redislock.go": `package redislock

import (
	"context"
	"time"
)

type Client struct{}

type Options struct{}

type Lock struct{}

func (c *Client) Obtain(ctx context.Context, key string, ttl time.Duration, opt *Options) (*Lock, error) {
	return &Lock{}, nil
}

func (l *Lock) Release(ctx context.Context) error { return nil }
`,
	"app/vendor/example.com/toolkit/rlock/rlock.go": `package rlock

import (
	"context"
	"time"

	"github.com/bsm/redislock"
)

var client = &redislock.Client{}

// RLock is a lock on key, taken by Lock and given up by Unlock.
type RLock struct {
	key  string
	lock *redislock.Lock
}

func New(key string) *RLock { return &RLock{key: key} }

func (r *RLock) Lock() error {
	l, err := client.Obtain(context.Background(), r.key, 30*time.Second, nil)
	if err != nil {
		return err
	}
	r.lock = l
	return nil
}

func (r *RLock) Unlock() error {
	if r.lock == nil {
		return nil
	}
	return r.lock.Release(context.Background())
}
`,
	"app/vendor/example.com/toolkit/dbq/dbq.go": `package dbq

import (
	"database/sql"
	"strings"
)

// Exec runs stmt and returns how many rows it changed.
func Exec(db *sql.DB, stmt string, args ...any) (int64, error) {
	stmt = strings.TrimSpace(stmt)
	res, err := db.Exec(stmt, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
`,
	"app/vendor/example.com/toolkit/cfg/cfg.go": `package cfg

func Name() string { return "app" }
`,
	"app/files/files.go": `package files

import (
	"database/sql"
	"errors"

	"example.com/toolkit/cfg"
	"example.com/toolkit/dbq"
	"example.com/toolkit/rlock"
)

func Move(db *sql.DB, uuid, dir string, fence int64) error {
	l := rlock.New(cfg.Name() + ":file:" + uuid)
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	if _, err := dbq.Exec(db, "UPDATE files SET parent = ? WHERE uuid = ?", dir, uuid); err != nil { // unfenced
		return err
	}
	n, err := dbq.Exec(db, "UPDATE files SET parent = ?, fence = ? WHERE uuid = ? AND fence < ?", dir, fence, uuid, fence)
	if err != nil {
		return err
	}
	if n == 0 {
		return errors.New("moved by a newer holder")
	}
	return nil
}

// Rename writes with no lock held.
func Rename(db *sql.DB, uuid, name string) error {
	_, err := dbq.Exec(db, "UPDATE files SET name = ? WHERE uuid = ?", name, uuid)
	return err
}
`,
}

// TestWrapperModule checks that a required module that wraps a lock
// library is read from source for the packages the application imports
// from it: the lease its lock object keeps and the statement its helper
// runs are known at the application's calls, and only the unfenced write
// under the lock is reported (not the fenced one, not the one made with
// no lock held, and nothing in the framework's own code).
func TestWrapperModule(t *testing.T) {
	root := writeFiles(t, t.TempDir(), wrapperModule)
	app := filepath.Join(root, "app")
	file := filepath.Join(app, "files", "files.go")
	want := []finding{{Analyzer: "unfencedwrite", File: "files.go", Line: lineOf(t, file, "// unfenced")}}
	got := run(t, app, fencelintBin, "-json", "./...")
	findings, err := parseJSON(got.stdout)
	if got.code != 0 || err != nil {
		t.Fatalf("fencelint -json ./...: exit code %d, %v\nstdout:\n%s\nstderr:\n%s", got.code, err, got.stdout, got.stderr)
	}
	var keys []finding
	for _, f := range findings {
		keys = append(keys, f.key())
		if !strings.Contains(f.Message, "RLock.Lock") {
			t.Errorf("the finding does not name the framework's lock: %s", f)
		}
	}
	slices.SortFunc(keys, func(a, b finding) int { return a.Line - b.Line })
	if !slices.Equal(keys, want) {
		t.Errorf("fencelint -json ./...: findings %v, want %v\nstderr:\n%s", findings, want, got.stderr)
	}
}
