package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"testing"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/sqlitetest"
	"github.com/fencelint/fencelint/testdata/fencegen/golden/sqlite-queries/querydb"
)

// TestQueries runs the users' own queries that fencegen fenced (golden
// case sqlite-queries, fence <= token) against a real SQLite database:
// every outcome a method reports is checked against the rows it left.
func TestQueries(t *testing.T) {
	ctx := context.Background()
	schema, err := os.ReadFile("../../golden/sqlite-queries/schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	pool := sqlitetest.Open(t)
	if _, err := pool.ExecContext(ctx, string(schema)); err != nil {
		t.Fatalf("apply schema: %v", err)
	}
	q := &queriesCase{t: t, ctx: ctx, pool: pool, f: querydb.NewFenced(pool), db: querydb.New(pool)}

	t.Run("exec update", q.execUpdate)
	t.Run("execrows update", q.execRowsUpdate)
	t.Run("one update with alias", q.oneUpdate)
	t.Run("exec delete", q.execDelete)
	t.Run("execrows delete with a subquery", q.execRowsDelete)
	t.Run("one upsert", q.oneUpsert)
	t.Run("execrows upsert", q.execRowsUpsert)
	t.Run("execrows upsert with its own condition", q.conditionalUpsert)
	t.Run("WITHOUT ROWID table", q.withoutRowid)
	t.Run("upsert from a query", q.upsertFromQuery)
	t.Run("unfenced and pass-through", q.passThrough)
}

type queriesCase struct {
	t    *testing.T
	ctx  context.Context
	pool *sql.DB
	f    *querydb.Fenced
	db   *querydb.Queries
}

func tok(n int64) querydb.Token { return querydb.TokenOf(n) }

// doc reads a docs row: title, status, fence (nil for NULL); ok false if gone.
func (q *queriesCase) doc(id int64) (title, status string, fence *int64, ok bool) {
	q.t.Helper()
	err := q.pool.QueryRowContext(q.ctx, "SELECT title, status, fence FROM docs WHERE id = $1", id).Scan(&title, &status, &fence)
	if err != nil {
		return "", "", nil, false
	}
	return title, status, fence, true
}

func (q *queriesCase) create(id int64, owner, title string) {
	q.t.Helper()
	if err := q.db.CreateDoc(q.ctx, querydb.CreateDocParams{ID: id, Owner: owner, Title: title}); err != nil {
		q.t.Fatal(err)
	}
}

// wantStale requires a *StaleError for table with the given current fence.
func wantStale(t *testing.T, err error, table string, current int64) {
	t.Helper()
	var se *querydb.StaleError
	if !errors.As(err, &se) || !errors.Is(err, querydb.ErrStale) {
		t.Fatalf("got %v, want a *StaleError", err)
	}
	if se.Table != table {
		t.Errorf("StaleError.Table = %q, want %q", se.Table, table)
	}
	if current >= 0 && (se.Current == nil || se.Current.Int64() != current) {
		t.Errorf("StaleError.Current = %v, want %d", se.Current, current)
	}
}

func wantNotFound(t *testing.T, err error) {
	t.Helper()
	var nf *querydb.NotFoundError
	if !errors.As(err, &nf) || !errors.Is(err, querydb.ErrNotFound) {
		t.Fatalf("got %v, want a *NotFoundError", err)
	}
}

func (q *queriesCase) wantDoc(id int64, title, status string, fence int64) {
	q.t.Helper()
	gotTitle, gotStatus, gotFence, ok := q.doc(id)
	if !ok {
		q.t.Fatalf("doc %d is gone", id)
	}
	if gotTitle != title || gotStatus != status || gotFence == nil || *gotFence != fence {
		q.t.Fatalf("doc %d = (%q, %q, %v), want (%q, %q, %d)", id, gotTitle, gotStatus, gotFence, title, status, fence)
	}
}

func (q *queriesCase) execUpdate(t *testing.T) {
	q.t = t
	q.create(1, "ann", "first")
	// A NULL fence (never written under fencing) accepts.
	if err := q.f.SetDocTitle(q.ctx, tok(5), querydb.SetDocTitleParams{ID: 1, Title: "five"}); err != nil {
		t.Fatal(err)
	}
	q.wantDoc(1, "five", "draft", 5)
	// Equal token: the holder rewrites its own row.
	if err := q.f.SetDocTitle(q.ctx, tok(5), querydb.SetDocTitleParams{ID: 1, Title: "five again"}); err != nil {
		t.Fatal(err)
	}
	if err := q.f.SetDocTitle(q.ctx, tok(7), querydb.SetDocTitleParams{ID: 1, Title: "seven"}); err != nil {
		t.Fatal(err)
	}
	err := q.f.SetDocTitle(q.ctx, tok(6), querydb.SetDocTitleParams{ID: 1, Title: "six"})
	wantStale(t, err, "docs", 7)
	q.wantDoc(1, "seven", "draft", 7)
	wantNotFound(t, q.f.SetDocTitle(q.ctx, tok(9), querydb.SetDocTitleParams{ID: 404, Title: "none"}))
}

func (q *queriesCase) execRowsUpdate(t *testing.T) {
	q.t = t
	for _, id := range []int64{10, 11, 12} {
		q.create(id, "bob", "b")
	}
	if err := q.f.SetDocTitle(q.ctx, tok(9), querydb.SetDocTitleParams{ID: 11, Title: "held"}); err != nil {
		t.Fatal(err)
	}
	w, err := q.f.PublishOwnerDocs(q.ctx, tok(8), querydb.PublishOwnerDocsParams{Owner: "bob"})
	wantStale(t, err, "docs", 9)
	if w != (querydb.Written{Rows: 2, Stale: 1}) {
		t.Fatalf("Written = %+v, want 2 rows, 1 stale", w)
	}
	q.wantDoc(10, "b", "published", 8)
	q.wantDoc(11, "held", "draft", 9)
	q.wantDoc(12, "b", "published", 8)
	// Only the stale row is left, and a token as new as its fence writes it.
	if w, err := q.f.PublishOwnerDocs(q.ctx, tok(9), querydb.PublishOwnerDocsParams{Owner: "bob"}); err != nil || w != (querydb.Written{Rows: 1}) {
		t.Fatalf("PublishOwnerDocs = %+v, %v; want 1 row", w, err)
	}
	// Nothing matched: no rows, no error.
	if w, err := q.f.PublishOwnerDocs(q.ctx, tok(9), querydb.PublishOwnerDocsParams{Owner: "nobody"}); err != nil || w != (querydb.Written{}) {
		t.Fatalf("PublishOwnerDocs(nobody) = %+v, %v; want nothing", w, err)
	}
	// Every matched row stale: all counted.
	q.create(13, "cy", "c")
	q.create(14, "cy", "c")
	for _, id := range []int64{13, 14} {
		if err := q.f.SetDocTitle(q.ctx, tok(20), querydb.SetDocTitleParams{ID: id, Title: "c"}); err != nil {
			t.Fatal(err)
		}
	}
	w, err = q.f.PublishOwnerDocs(q.ctx, tok(19), querydb.PublishOwnerDocsParams{Owner: "cy"})
	wantStale(t, err, "docs", 20)
	if w != (querydb.Written{Stale: 2}) {
		t.Fatalf("Written = %+v, want 0 rows, 2 stale", w)
	}
}

func (q *queriesCase) oneUpdate(t *testing.T) {
	q.t = t
	q.create(20, "dee", "d")
	row, err := q.f.ArchiveDoc(q.ctx, tok(3), querydb.ArchiveDocParams{ID: 20})
	if err != nil {
		t.Fatal(err)
	}
	if row.ID != 20 || row.Status != "archived" || !row.Fence.Valid || row.Fence.Int64 != 3 {
		t.Fatalf("ArchiveDoc returned %+v, want the archived row with fence 3", row)
	}
	_, err = q.f.ArchiveDoc(q.ctx, tok(2), querydb.ArchiveDocParams{ID: 20})
	wantStale(t, err, "docs", 3)
	_, err = q.f.ArchiveDoc(q.ctx, tok(2), querydb.ArchiveDocParams{ID: 404})
	wantNotFound(t, err)
}

func (q *queriesCase) execDelete(t *testing.T) {
	q.t = t
	q.create(40, "fay", "f")
	if err := q.f.SetDocTitle(q.ctx, tok(4), querydb.SetDocTitleParams{ID: 40, Title: "f"}); err != nil {
		t.Fatal(err)
	}
	wantStale(t, q.f.RemoveDoc(q.ctx, tok(3), querydb.RemoveDocParams{ID: 40}), "docs", 4)
	if _, _, _, ok := q.doc(40); !ok {
		t.Fatal("a stale delete removed the row")
	}
	if err := q.f.RemoveDoc(q.ctx, tok(4), querydb.RemoveDocParams{ID: 40}); err != nil {
		t.Fatal(err)
	}
	if _, _, _, ok := q.doc(40); ok {
		t.Fatal("the delete left the row")
	}
	wantNotFound(t, q.f.RemoveDoc(q.ctx, tok(4), querydb.RemoveDocParams{ID: 40}))
}

func (q *queriesCase) execRowsDelete(t *testing.T) {
	q.t = t
	for _, id := range []int64{50, 51} {
		q.create(id, "gus", "g")
		if err := q.db.TagDoc(q.ctx, querydb.TagDocParams{DocID: id, Tag: "old"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.f.SetDocTitle(q.ctx, tok(60), querydb.SetDocTitleParams{ID: 51, Title: "g"}); err != nil {
		t.Fatal(err)
	}
	w, err := q.f.PurgeTagged(q.ctx, tok(55), querydb.PurgeTaggedParams{Tag: "old"})
	wantStale(t, err, "docs", 60)
	if w != (querydb.Written{Rows: 1, Stale: 1}) {
		t.Fatalf("Written = %+v, want 1 row, 1 stale", w)
	}
	if _, _, _, ok := q.doc(51); !ok {
		t.Fatal("the stale row was deleted")
	}
}

func (q *queriesCase) counter(name string) (n, fence int64) {
	q.t.Helper()
	if err := q.pool.QueryRowContext(q.ctx, "SELECT n, fence FROM counters WHERE name = $1", name).Scan(&n, &fence); err != nil {
		q.t.Fatal(err)
	}
	return n, fence
}

func (q *queriesCase) oneUpsert(t *testing.T) {
	q.t = t
	if n, err := q.f.BumpCounter(q.ctx, tok(5), querydb.BumpCounterParams{Name: "hits"}); err != nil || n != 1 {
		t.Fatalf("BumpCounter (insert) = %d, %v", n, err)
	}
	if n, err := q.f.BumpCounter(q.ctx, tok(5), querydb.BumpCounterParams{Name: "hits"}); err != nil || n != 2 {
		t.Fatalf("BumpCounter (same token) = %d, %v", n, err)
	}
	_, err := q.f.BumpCounter(q.ctx, tok(4), querydb.BumpCounterParams{Name: "hits"})
	wantStale(t, err, "counters", -1)
	if n, fence := q.counter("hits"); n != 2 || fence != 5 {
		t.Fatalf("counter = %d fence %d after a stale bump, want 2 fence 5", n, fence)
	}
}

func (q *queriesCase) execRowsUpsert(t *testing.T) {
	q.t = t
	w, err := q.f.SetCounters(q.ctx, tok(10), querydb.SetCountersParams{A: "a", AN: 1, B: "b", BN: 1})
	if err != nil || w != (querydb.Written{Rows: 2}) {
		t.Fatalf("SetCounters (insert) = %+v, %v", w, err)
	}
	if _, err := q.f.BumpCounter(q.ctx, tok(12), querydb.BumpCounterParams{Name: "b"}); err != nil {
		t.Fatal(err)
	}
	w, err = q.f.SetCounters(q.ctx, tok(11), querydb.SetCountersParams{A: "a", AN: 7, B: "b", BN: 7})
	wantStale(t, err, "counters", -1)
	if w != (querydb.Written{Rows: 1, Stale: 1}) {
		t.Fatalf("Written = %+v, want 1 row, 1 stale", w)
	}
	if n, fence := q.counter("a"); n != 7 || fence != 11 {
		t.Fatalf("a = %d fence %d, want 7 fence 11", n, fence)
	}
	if n, fence := q.counter("b"); n != 2 || fence != 12 {
		t.Fatalf("b = %d fence %d, want 2 fence 12 (the newer holder's)", n, fence)
	}
}

func (q *queriesCase) passThrough(t *testing.T) {
	q.t = t
	// ResetDrafts is marked unfenced: sqlc's method, on Queries, no token.
	n, err := q.db.ResetDrafts(q.ctx)
	if err != nil || n == 0 {
		t.Fatalf("ResetDrafts = %d, %v", n, err)
	}
	d, err := q.db.GetDoc(q.ctx, querydb.GetDocParams{ID: 1})
	if err != nil || d.Status != "draft" {
		t.Fatalf("GetDoc = %+v, %v", d, err)
	}
}

// conditionalUpsert tells the rows the query's own DO UPDATE condition
// skipped (not stale) from those a newer token holds.
func (q *queriesCase) conditionalUpsert(t *testing.T) {
	q.t = t
	set := func(token, x, y int64) (querydb.Written, error) {
		return q.f.SetCountersIfChanged(q.ctx, tok(token), querydb.SetCountersIfChangedParams{Name: "x", N: x, Name_2: "y", N_2: y})
	}
	if w, err := set(5, 1, 1); err != nil || w != (querydb.Written{Rows: 2}) {
		t.Fatalf("SetCountersIfChanged (insert) = %+v, %v", w, err)
	}
	// x unchanged: skipped by the query's own condition, not stale.
	if w, err := set(5, 1, 2); err != nil || w != (querydb.Written{Rows: 1}) {
		t.Fatalf("SetCountersIfChanged (x unchanged) = %+v, %v; want 1 row, no error", w, err)
	}
	if w, err := set(5, 1, 2); err != nil || w != (querydb.Written{}) {
		t.Fatalf("SetCountersIfChanged (both unchanged) = %+v, %v; want nothing, no error", w, err)
	}
	// y held by a newer token, x unchanged: one stale, one skipped.
	if _, err := q.f.BumpCounter(q.ctx, tok(9), querydb.BumpCounterParams{Name: "y"}); err != nil {
		t.Fatal(err)
	}
	w, err := set(6, 1, 7)
	wantStale(t, err, "counters", 9)
	if w != (querydb.Written{Stale: 1}) {
		t.Fatalf("Written = %+v, want 0 rows, 1 stale", w)
	}
	if n, fence := q.counter("y"); n != 3 || fence != 9 {
		t.Fatalf("y = %d fence %d, want 3 fence 9", n, fence)
	}
	if n, fence := q.counter("x"); n != 1 || fence != 5 {
		t.Fatalf("x = %d fence %d, want 1 fence 5 (skipped)", n, fence)
	}
}

// withoutRowid fences a WITHOUT ROWID table, whose check counts rows
// without a rowid.
func (q *queriesCase) withoutRowid(t *testing.T) {
	q.t = t
	take := func(token int64, slot int64, owner string) error {
		return q.f.TakeSlot(q.ctx, tok(token), querydb.TakeSlotParams{Owner: owner, Shard: "s1", Slot: slot})
	}
	wantNotFound(t, take(5, 1, "ann"))
	if _, err := q.pool.ExecContext(q.ctx, "INSERT INTO slots (shard, slot, owner) VALUES ('s1', 1, ''), ('s1', 2, ''), ('s2', 1, '')"); err != nil {
		t.Fatal(err)
	}
	if err := take(5, 1, "ann"); err != nil {
		t.Fatal(err)
	}
	if err := take(5, 1, "ann again"); err != nil {
		t.Fatalf("equal token: %v", err)
	}
	wantStale(t, take(4, 1, "old"), "slots", 5)
	var owner string
	if err := q.pool.QueryRowContext(q.ctx, "SELECT owner FROM slots WHERE shard = 's1' AND slot = 1").Scan(&owner); err != nil || owner != "ann again" {
		t.Fatalf("slot 1 owner = %q, %v; want the equal token's write", owner, err)
	}
	for _, slot := range []int64{1, 2} {
		if err := q.db.TagDoc(q.ctx, querydb.TagDocParams{DocID: slot, Tag: "free"}); err != nil {
			t.Fatal(err)
		}
	}
	w, err := q.f.FreeShard(q.ctx, tok(4), querydb.FreeShardParams{Shard: "s1", Tag: "free"})
	wantStale(t, err, "slots", 5)
	if w != (querydb.Written{Rows: 1, Stale: 1}) {
		t.Fatalf("Written = %+v, want 1 row, 1 stale", w)
	}
	var left int
	if err := q.pool.QueryRowContext(q.ctx, "SELECT count(*) FROM slots").Scan(&left); err != nil || left != 2 {
		t.Fatalf("%d slots left (%v), want the held one and shard s2's", left, err)
	}
}

// upsertFromQuery fences INSERT ... SELECT ... ON CONFLICT DO UPDATE: the
// check runs the query again to find the rows it upserted.
func (q *queriesCase) upsertFromQuery(t *testing.T) {
	q.t = t
	for _, tag := range []string{"q-red", "q-blue"} {
		if err := q.db.TagDoc(q.ctx, querydb.TagDocParams{DocID: 300, Tag: tag}); err != nil {
			t.Fatal(err)
		}
	}
	if w, err := q.f.CountTags(q.ctx, tok(5), querydb.CountTagsParams{DocID: 300}); err != nil || w != (querydb.Written{Rows: 2}) {
		t.Fatalf("CountTags (insert) = %+v, %v; want 2 rows", w, err)
	}
	if _, err := q.f.BumpCounter(q.ctx, tok(8), querydb.BumpCounterParams{Name: "q-blue"}); err != nil {
		t.Fatal(err)
	}
	w, err := q.f.CountTags(q.ctx, tok(6), querydb.CountTagsParams{DocID: 300})
	wantStale(t, err, "counters", 8)
	if w != (querydb.Written{Rows: 1, Stale: 1}) {
		t.Fatalf("Written = %+v, want 1 row, 1 stale", w)
	}
	if n, fence := q.counter("q-blue"); n != 2 || fence != 8 {
		t.Fatalf("q-blue = %d fence %d, want 2 fence 8 (the newer holder's)", n, fence)
	}
	if n, fence := q.counter("q-red"); n != 1 || fence != 6 {
		t.Fatalf("q-red = %d fence %d, want 1 fence 6", n, fence)
	}
	if w, err := q.f.CountTags(q.ctx, tok(6), querydb.CountTagsParams{DocID: 404}); err != nil || w != (querydb.Written{}) {
		t.Fatalf("CountTags (no tags) = %+v, %v; want nothing", w, err)
	}
}
