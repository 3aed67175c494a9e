// Package suite is the engine-independent behaviour suite for fencegen's
// generated code. Each engine's test binds one generated package to a live
// database as a Store (a thin adapter: the generated methods, a raw read of
// the row, and the package's own errors.Is/errors.As checks) and hands it to
// Run, so every engine and driver is held to the same table of cases.
package suite

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/fencecheck"
)

// Store is one generated package bound to a database.
type Store struct {
	Cmp      fencecheck.Comparison // the package's fence predicate
	Tables   []Table
	Classify func(error) Verdict // the package's errors.Is/errors.As view of an error
}

// Table is one fenced table. Keys and values are int64 so one suite drives
// every table; the adapter converts them to the table's real columns (a
// composite key derives all its parts from the one number, a text column
// holds the decimal value).
type Table struct {
	Name          string // as the generated StaleError names it, e.g. "app.settings"
	NullableFence bool

	Update func(ctx context.Context, token, key, value int64) error
	Upsert func(ctx context.Context, token, key, value int64) error
	Delete func(ctx context.Context, token, key int64) error
	// Read reads the row with plain SQL: found, its value and its fence (nil
	// when NULL).
	Read func(ctx context.Context, key int64) (found bool, value int64, fence *int64, err error)
	// InsertUnfenced inserts a row with a NULL fence with plain SQL; only for
	// tables with a nullable fence.
	InsertUnfenced func(ctx context.Context, key, value int64) error
}

// Verdict is how a generated package classifies a write's error.
type Verdict struct {
	IsStale    bool   // errors.Is(err, ErrStale)
	AsStale    bool   // errors.As(err, **StaleError)
	Current    *int64 // (*StaleError).Current
	StaleTable string // (*StaleError).Table
	IsNotFound bool   // errors.Is(err, ErrNotFound)
	AsNotFound bool   // errors.As(err, **NotFoundError)
}

// Run runs every case against every table of s.
func Run(t *testing.T, s Store) {
	for _, table := range s.Tables {
		t.Run(table.Name, func(t *testing.T) {
			for _, c := range cases(s.Cmp) {
				if c.needsNullableFence && !table.NullableFence {
					continue // not a case of this table: no empty passing subtest
				}
				t.Run(c.name, func(t *testing.T) {
					c.run(checker{t: t, store: s, table: table, ctx: context.Background()})
				})
			}
		})
	}
}

// RunSchemaIsolation checks that two tables with the same name in different
// schemas (named a and b in s) are written, fenced and labelled separately.
func RunSchemaIsolation(t *testing.T, s Store, a, b string) {
	t.Run("schema isolation "+a+" vs "+b, func(t *testing.T) {
		ca := checker{t: t, store: s, table: s.table(t, a), ctx: context.Background()}
		cb := checker{t: t, store: s, table: s.table(t, b), ctx: context.Background()}
		ca.seed(201, 1, 5)
		cb.seed(201, 2, 9)
		ca.applied("update of "+a, ca.table.Update(ca.ctx, 6, 201, 3))
		cb.row(201, 2, 9)
		cb.stale("update of "+b, cb.table.Update(cb.ctx, 7, 201, 4), 9)
		ca.row(201, 3, 6)
		ca.applied("delete from "+a, ca.table.Delete(ca.ctx, 7, 201))
		cb.row(201, 2, 9)
	})
}

func (s Store) table(t *testing.T, name string) Table {
	t.Helper()
	for _, table := range s.Tables {
		if table.Name == name {
			return table
		}
	}
	t.Fatalf("store has no table %s", name)
	return Table{}
}

// testCase is one behaviour, run on its own key of a table.
type testCase struct {
	name               string
	needsNullableFence bool
	run                func(c checker)
}

// cases lists the behaviours. Every case uses its own key so the cases of one
// table do not see each other's rows.
func cases(cmp fencecheck.Comparison) []testCase {
	return []testCase{
		{name: "upsert inserts a new row", run: func(c checker) {
			c.applied("upsert", c.table.Upsert(c.ctx, 5, 101, 1))
			c.row(101, 1, 5)
		}},
		{name: "stale update is rejected and leaves the row", run: func(c checker) {
			c.seed(102, 1, 5)
			c.stale("update", c.table.Update(c.ctx, 3, 102, 2), 5)
			c.row(102, 1, 5)
		}},
		{name: "newer update applies", run: func(c checker) {
			c.seed(103, 1, 5)
			c.applied("update", c.table.Update(c.ctx, 6, 103, 2))
			c.row(103, 2, 6)
		}},
		{name: "same token update", run: func(c checker) {
			c.seed(104, 1, 5)
			err := c.table.Update(c.ctx, 5, 104, 2)
			if cmp == fencecheck.Below {
				c.stale("update with the current token under <", err, 5)
				c.row(104, 1, 5)
				return
			}
			c.applied("update with the current token under <=", err)
			c.row(104, 2, 5)
		}},
		{name: "same token rewrite of identical values", run: func(c checker) {
			c.seed(105, 1, 5)
			err := c.table.Update(c.ctx, 5, 105, 1)
			if cmp == fencecheck.Below {
				c.stale("identical rewrite under <", err, 5)
			} else {
				c.applied("identical rewrite under <=", err)
			}
			c.row(105, 1, 5)
		}},
		{name: "same token upsert", run: func(c checker) {
			c.seed(117, 1, 5)
			err := c.table.Upsert(c.ctx, 5, 117, 2)
			if cmp == fencecheck.Below {
				c.stale("upsert with the current token under <", err, 5)
				c.row(117, 1, 5)
				return
			}
			c.applied("upsert with the current token under <=", err)
			c.row(117, 2, 5)
		}},
		{name: "same token upsert of identical values", run: func(c checker) {
			c.seed(119, 1, 5)
			err := c.table.Upsert(c.ctx, 5, 119, 1)
			if cmp == fencecheck.Below {
				c.stale("identical upsert under <", err, 5)
			} else {
				c.applied("identical upsert under <=", err)
			}
			c.row(119, 1, 5)
		}},
		{name: "same token delete", run: func(c checker) {
			c.seed(118, 1, 5)
			err := c.table.Delete(c.ctx, 5, 118)
			if cmp == fencecheck.Below {
				c.stale("delete with the current token under <", err, 5)
				c.row(118, 1, 5)
				return
			}
			c.applied("delete with the current token under <=", err)
			c.missing(118)
		}},
		{name: "tokens beyond 32 bits", run: func(c checker) {
			const big = int64(1) << 40 // an etcd revision or zxid after a long life
			c.seed(120, 1, big)
			c.stale("update", c.table.Update(c.ctx, big-1, 120, 2), big)
			c.applied("update", c.table.Update(c.ctx, big+1, 120, 3))
			c.row(120, 3, big+1)
		}},
		{name: "update of a missing row is not found", run: func(c checker) {
			c.notFound("update", c.table.Update(c.ctx, 9, 106, 1))
			c.missing(106)
		}},
		{name: "stale upsert conflict leaves the row", run: func(c checker) {
			c.seed(107, 1, 5)
			c.stale("upsert", c.table.Upsert(c.ctx, 4, 107, 2), 5)
			c.row(107, 1, 5)
		}},
		{name: "newer upsert conflict updates the row", run: func(c checker) {
			c.seed(108, 1, 5)
			c.applied("upsert", c.table.Upsert(c.ctx, 8, 108, 2))
			c.row(108, 2, 8)
		}},
		{name: "stale delete is rejected and keeps the row", run: func(c checker) {
			c.seed(109, 1, 5)
			c.stale("delete", c.table.Delete(c.ctx, 2, 109), 5)
			c.row(109, 1, 5)
		}},
		{name: "newer delete removes the row", run: func(c checker) {
			c.seed(110, 1, 5)
			c.applied("delete", c.table.Delete(c.ctx, 6, 110))
			c.missing(110)
		}},
		{name: "delete of a missing row is not found", run: func(c checker) {
			c.notFound("delete", c.table.Delete(c.ctx, 6, 111))
		}},
		{name: "writes to other keys are untouched", run: func(c checker) {
			c.seed(112, 1, 5)
			c.seed(113, 1, 5)
			c.applied("update", c.table.Update(c.ctx, 7, 112, 2))
			c.row(113, 1, 5)
		}},
		{name: "null fence accepts the first update", needsNullableFence: true, run: func(c checker) {
			c.insertUnfenced(114, 1)
			c.applied("update", c.table.Update(c.ctx, 1, 114, 2))
			c.row(114, 2, 1)
			c.stale("update", c.table.Update(c.ctx, 0, 114, 3), 1)
		}},
		{name: "null fence accepts the first upsert", needsNullableFence: true, run: func(c checker) {
			c.insertUnfenced(115, 1)
			c.applied("upsert", c.table.Upsert(c.ctx, 1, 115, 2))
			c.row(115, 2, 1)
		}},
		{name: "null fence accepts the first delete", needsNullableFence: true, run: func(c checker) {
			c.insertUnfenced(116, 1)
			c.applied("delete", c.table.Delete(c.ctx, 1, 116))
			c.missing(116)
		}},
	}
}

// checker holds one case's table and reports failures against its test.
type checker struct {
	t     *testing.T
	store Store
	table Table
	ctx   context.Context
}

// seed creates the row through the generated upsert.
func (c checker) seed(key, value, fence int64) {
	c.t.Helper()
	if err := c.table.Upsert(c.ctx, fence, key, value); err != nil {
		c.t.Fatalf("seed key %d with token %d: %v", key, fence, err)
	}
}

func (c checker) insertUnfenced(key, value int64) {
	c.t.Helper()
	if err := c.table.InsertUnfenced(c.ctx, key, value); err != nil {
		c.t.Fatalf("insert key %d with a NULL fence: %v", key, err)
	}
}

func (c checker) applied(op string, err error) {
	c.t.Helper()
	if err != nil {
		c.t.Fatalf("%s: got error %v, want the write applied", op, err)
	}
}

// stale checks that err is the package's stale error, both through
// errors.Is and errors.As, reporting the current fence and the table.
func (c checker) stale(op string, err error, current int64) {
	c.t.Helper()
	if err == nil {
		c.t.Fatalf("%s: applied, want a stale-token error", op)
	}
	v := c.store.Classify(err)
	switch {
	case !v.IsStale:
		c.t.Errorf("%s: errors.Is(%v, ErrStale) = false", op, err)
	case !v.AsStale:
		c.t.Errorf("%s: errors.As(%v, *StaleError) = false", op, err)
	case v.Current == nil || *v.Current != current:
		c.t.Errorf("%s: StaleError.Current = %s, want %d", op, show(v.Current), current)
	case v.StaleTable != c.table.Name:
		c.t.Errorf("%s: StaleError.Table = %q, want %q", op, v.StaleTable, c.table.Name)
	case v.IsNotFound:
		c.t.Errorf("%s: stale error %v also matches ErrNotFound", op, err)
	case !strings.Contains(err.Error(), "stale"):
		c.t.Errorf("%s: message %q does not say the token is stale", op, err)
	}
}

// notFound checks that err is the package's not-found error and not stale.
func (c checker) notFound(op string, err error) {
	c.t.Helper()
	if err == nil {
		c.t.Fatalf("%s: applied, want a not-found error", op)
	}
	v := c.store.Classify(err)
	if !v.IsNotFound || !v.AsNotFound || v.IsStale || v.AsStale {
		c.t.Errorf("%s: error %v classified as %+v, want not found only", op, err, v)
	}
}

// row checks the stored value and fence of key.
func (c checker) row(key, value, fence int64) {
	c.t.Helper()
	found, gotValue, gotFence, err := c.table.Read(c.ctx, key)
	switch {
	case err != nil:
		c.t.Fatalf("read key %d: %v", key, err)
	case !found:
		c.t.Errorf("key %d: row missing, want value %d fence %d", key, value, fence)
	case gotValue != value || gotFence == nil || *gotFence != fence:
		c.t.Errorf("key %d: row has value %d fence %s, want value %d fence %d", key, gotValue, show(gotFence), value, fence)
	}
}

func (c checker) missing(key int64) {
	c.t.Helper()
	found, value, fence, err := c.table.Read(c.ctx, key)
	if err != nil {
		c.t.Fatalf("read key %d: %v", key, err)
	}
	if found {
		c.t.Errorf("key %d: row exists (value %d fence %s), want none", key, value, show(fence))
	}
}

func show(p *int64) string {
	if p == nil {
		return "NULL"
	}
	return fmt.Sprint(*p)
}
