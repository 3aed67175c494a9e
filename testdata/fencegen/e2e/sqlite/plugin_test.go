package sqlite_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/sqlitetest"
	"github.com/fencelint/fencelint/testdata/fencegen/golden/sqlc-plugin-sqlite/plugindb"
)

// TestSQLCPlugin runs the package one `sqlc generate` wrote with fencegen
// declared as a process plugin (golden case sqlc-plugin-sqlite, over
// database/sql): sqlc's Queries and models and fencegen's Fenced live in
// one package, and the fenced methods take sqlc's params types
// (SetDocTitleParams) or fencegen's where sqlc passes a plain argument
// (RemoveDoc), and return sqlc's rows.
func TestSQLCPlugin(t *testing.T) {
	ctx := context.Background()
	schema, err := os.ReadFile("../../golden/sqlc-plugin-sqlite/schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	pool := sqlitetest.Open(t)
	if _, err := pool.ExecContext(ctx, string(schema)); err != nil {
		t.Fatalf("apply schema: %v", err)
	}
	q, f := plugindb.New(pool), plugindb.NewFenced(pool)
	tok := plugindb.TokenOf

	wantStale := func(t *testing.T, err error, current int64) {
		t.Helper()
		var se *plugindb.StaleError
		if !errors.As(err, &se) || !errors.Is(err, plugindb.ErrStale) {
			t.Fatalf("got %v, want a *StaleError", err)
		}
		if current >= 0 && (se.Current == nil || se.Current.Int64() != current) {
			t.Errorf("StaleError.Current = %v, want %d", se.Current, current)
		}
	}
	wantNotFound := func(t *testing.T, err error) {
		t.Helper()
		if !errors.Is(err, plugindb.ErrNotFound) {
			t.Fatalf("got %v, want a *NotFoundError", err)
		}
	}
	// wantDoc reads the row through sqlc's own GetDoc and model.
	wantDoc := func(t *testing.T, id int64, title, status string, fence int64) {
		t.Helper()
		d, err := q.GetDoc(ctx, id)
		if err != nil {
			t.Fatalf("GetDoc(%d): %v", id, err)
		}
		if d.Title != title || d.Status != status || !d.Fence.Valid || d.Fence.Int64 != fence {
			t.Fatalf("doc %d = (%q, %q, %v), want (%q, %q, %d)", id, d.Title, d.Status, d.Fence, title, status, fence)
		}
	}

	t.Run("user query with sqlc's params", func(t *testing.T) {
		if err := q.CreateDoc(ctx, plugindb.CreateDocParams{ID: 1, Owner: "ann", Title: "first"}); err != nil {
			t.Fatal(err)
		}
		if err := f.SetDocTitle(ctx, tok(5), plugindb.SetDocTitleParams{ID: 1, Title: "five"}); err != nil {
			t.Fatal(err)
		}
		wantDoc(t, 1, "five", "draft", 5)
		wantStale(t, f.SetDocTitle(ctx, tok(4), plugindb.SetDocTitleParams{ID: 1, Title: "four"}), 5)
		wantDoc(t, 1, "five", "draft", 5)
		wantNotFound(t, f.SetDocTitle(ctx, tok(9), plugindb.SetDocTitleParams{ID: 99, Title: "x"}))
	})
	t.Run("user query returning sqlc's row type", func(t *testing.T) {
		row, err := f.ArchiveDoc(ctx, tok(6), plugindb.ArchiveDocParams{ID: 1})
		if err != nil {
			t.Fatal(err)
		}
		var _ plugindb.ArchiveDocRow = row // the unfenced ArchiveDoc's row type
		if row.ID != 1 || row.Status != "archived" || row.Fence.Int64 != 6 {
			t.Fatalf("ArchiveDoc = %+v", row)
		}
		_, err = f.ArchiveDoc(ctx, tok(5), plugindb.ArchiveDocParams{ID: 1})
		wantStale(t, err, 6)
	})
	t.Run("user query with fencegen's params", func(t *testing.T) {
		wantStale(t, f.RemoveDoc(ctx, tok(2), plugindb.RemoveDocParams{ID: 1}), 6)
		wantDoc(t, 1, "five", "archived", 6)
		if err := f.RemoveDoc(ctx, tok(7), plugindb.RemoveDocParams{ID: 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := q.GetDoc(ctx, 1); err == nil {
			t.Fatal("doc 1 is still there after a fenced RemoveDoc")
		}
		wantNotFound(t, f.RemoveDoc(ctx, tok(7), plugindb.RemoveDocParams{ID: 1}))
	})
	t.Run("many rows", func(t *testing.T) {
		for id, title := range map[int64]string{2: "a", 3: "b"} {
			if err := q.CreateDoc(ctx, plugindb.CreateDocParams{ID: id, Owner: "bob", Title: title}); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.SetDocTitle(ctx, tok(10), plugindb.SetDocTitleParams{ID: 3, Title: "b10"}); err != nil {
			t.Fatal(err)
		}
		w, err := f.PublishOwnerDocs(ctx, tok(8), plugindb.PublishOwnerDocsParams{Owner: "bob"})
		wantStale(t, err, -1)
		if w.Rows != 1 || w.Stale != 1 {
			t.Fatalf("PublishOwnerDocs = %+v, want 1 written and 1 stale", w)
		}
		wantDoc(t, 2, "a", "published", 8)
		wantDoc(t, 3, "b10", "draft", 10)
	})
	t.Run("fencegen's table writes", func(t *testing.T) {
		if err := f.UpsertCounter(ctx, tok(3), plugindb.UpsertCounterParams{Name: "c", N: 1}); err != nil {
			t.Fatal(err)
		}
		wantStale(t, f.UpdateCounter(ctx, tok(2), plugindb.UpdateCounterParams{Name: "c", N: 2}), 3)
		if err := f.UpdateCounter(ctx, tok(3), plugindb.UpdateCounterParams{Name: "c", N: 2}); err != nil {
			t.Fatal(err)
		}
		wantNotFound(t, f.DeleteCounter(ctx, tok(3), plugindb.DeleteCounterParams{Name: "nope"}))
		var n, fence int64
		if err := pool.QueryRowContext(ctx, "SELECT n, fence FROM counters WHERE name = 'c'").Scan(&n, &fence); err != nil {
			t.Fatal(err)
		}
		if n != 2 || fence != 3 {
			t.Fatalf("counter c = (%d, %d), want (2, 3)", n, fence)
		}
	})
	t.Run("sqlc's unfenced query is still sqlc's", func(t *testing.T) {
		// Queries.SetDocTitle ignores the fence: fencelint reports it under a lease.
		if err := q.SetDocTitle(ctx, plugindb.SetDocTitleParams{ID: 3, Title: "unfenced"}); err != nil {
			t.Fatal(err)
		}
		wantDoc(t, 3, "unfenced", "draft", 10)
	})
}
