package postgres_test

import (
	"context"
	"errors"
	"math"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/pgtest"
	"github.com/fencelint/fencelint/testdata/fencegen/golden/postgres-queries/querydb"
)

// TestQueries runs the users' own queries that fencegen fenced (golden
// case postgres-queries, fence <= token) against a real PostgreSQL: every
// outcome a method reports is checked against the rows it left.
func TestQueries(t *testing.T) {
	server := pgtest.New(t)
	ctx := context.Background()
	schema, err := os.ReadFile("../../golden/postgres-queries/schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, server.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := pool.Exec(ctx, string(schema)); err != nil {
		t.Fatalf("apply schema: %v", err)
	}
	q := &queriesCase{t: t, ctx: ctx, pool: pool, f: querydb.NewFenced(pool), db: querydb.New(pool)}

	t.Run("exec update", q.execUpdate)
	t.Run("execrows update", q.execRowsUpdate)
	t.Run("one update with alias", q.oneUpdate)
	t.Run("many update with join", q.manyUpdate)
	t.Run("exec delete", q.execDelete)
	t.Run("execrows delete using", q.execRowsDelete)
	t.Run("one upsert", q.oneUpsert)
	t.Run("execrows upsert", q.execRowsUpsert)
	t.Run("exec upsert with its own condition", q.execUpsert)
	t.Run("one upsert with its own condition", q.oneConditionalUpsert)
	t.Run("upserts from a query", q.upsertFromQuery)
	t.Run("unfenced and pass-through", q.passThrough)
	t.Run("narrow fence", q.narrowFence)
}

type queriesCase struct {
	t    *testing.T
	ctx  context.Context
	pool *pgxpool.Pool
	f    *querydb.Fenced
	db   *querydb.Queries
}

func tok(n int64) querydb.Token { return querydb.TokenOf(n) }

// doc reads a docs row: title, status, fence (nil for NULL); ok false if gone.
func (q *queriesCase) doc(id int64) (title, status string, fence *int64, ok bool) {
	q.t.Helper()
	err := q.pool.QueryRow(q.ctx, "SELECT title, status, fence FROM docs WHERE id = $1", id).Scan(&title, &status, &fence)
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

func (q *queriesCase) manyUpdate(t *testing.T) {
	q.t = t
	for _, id := range []int64{30, 31, 32} {
		q.create(id, "eve", "e")
		// Two tags on a row: the join matches it twice, it is counted once.
		for _, tag := range []string{"x", "x2"} {
			if err := q.db.TagDoc(q.ctx, querydb.TagDocParams{DocID: id, Tag: tag}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := q.f.SetDocTitle(q.ctx, tok(50), querydb.SetDocTitleParams{ID: 31, Title: "held"}); err != nil {
		t.Fatal(err)
	}
	rows, err := q.f.RetitleFromTag(q.ctx, tok(40), querydb.RetitleFromTagParams{Tag: "x"})
	wantStale(t, err, "docs", 50)
	if len(rows) != 2 {
		t.Fatalf("RetitleFromTag returned %d rows, want 2 (30 and 32)", len(rows))
	}
	for _, r := range rows {
		if r.Title != "x" || r.Fence.Int64 != 40 {
			t.Errorf("row %+v, want title x fence 40", r)
		}
	}
	q.wantDoc(31, "held", "draft", 50)
	if rows, err := q.f.RetitleFromTag(q.ctx, tok(50), querydb.RetitleFromTagParams{Tag: "x2"}); err != nil || len(rows) != 3 {
		t.Fatalf("RetitleFromTag(50) = %d rows, %v; want 3 rows", len(rows), err)
	}
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
	if err := q.pool.QueryRow(q.ctx, "SELECT n, fence FROM counters WHERE name = $1", name).Scan(&n, &fence); err != nil {
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

func (q *queriesCase) execUpsert(t *testing.T) {
	q.t = t
	if err := q.f.SetCounter(q.ctx, tok(3), querydb.SetCounterParams{Name: "c", N: 1}); err != nil {
		t.Fatal(err)
	}
	if err := q.f.SetCounter(q.ctx, tok(3), querydb.SetCounterParams{Name: "c", N: 2}); err != nil {
		t.Fatal(err)
	}
	// The same value again: skipped by the query's own condition, not stale.
	if err := q.f.SetCounter(q.ctx, tok(3), querydb.SetCounterParams{Name: "c", N: 2}); err != nil {
		t.Fatalf("an upsert its own condition skipped: %v", err)
	}
	if err := q.f.SetCounter(q.ctx, tok(4), querydb.SetCounterParams{Name: "c", N: 2}); err != nil {
		t.Fatalf("an upsert its own condition skipped, newer token: %v", err)
	}
	wantStale(t, q.f.SetCounter(q.ctx, tok(2), querydb.SetCounterParams{Name: "c", N: 9}), "counters", 3)
	if n, fence := q.counter("c"); n != 2 || fence != 3 {
		t.Fatalf("c = %d fence %d, want 2 fence 3", n, fence)
	}
	// Held by a newer token and skipped by the condition alike: stale.
	wantStale(t, q.f.SetCounter(q.ctx, tok(2), querydb.SetCounterParams{Name: "c", N: 2}), "counters", 3)
}

func (q *queriesCase) oneConditionalUpsert(t *testing.T) {
	q.t = t
	raise := func(token, n int64) (int64, error) {
		return q.f.RaiseCounter(q.ctx, tok(token), querydb.RaiseCounterParams{Name: "r", N: n})
	}
	if n, err := raise(5, 3); err != nil || n != 3 {
		t.Fatalf("RaiseCounter (insert) = %d, %v", n, err)
	}
	// Not a raise: the query's own condition skips the row, and the method
	// returns what the unfenced query would, pgx's no-rows error.
	if _, err := raise(5, 2); !errors.Is(err, pgx.ErrNoRows) || errors.Is(err, querydb.ErrStale) {
		t.Fatalf("RaiseCounter (lower) = %v, want pgx.ErrNoRows", err)
	}
	if _, err := raise(4, 9); err == nil {
		t.Fatal("RaiseCounter with an older token wrote")
	} else {
		wantStale(t, err, "counters", 5)
	}
	if n, err := raise(6, 9); err != nil || n != 9 {
		t.Fatalf("RaiseCounter (newer) = %d, %v", n, err)
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

func (q *queriesCase) narrowFence(t *testing.T) {
	q.t = t
	if _, err := q.pool.Exec(q.ctx, "INSERT INTO events (id, kind, fence) VALUES (1, 'a', NULL)"); err != nil {
		t.Fatal(err)
	}
	err := q.f.RenameEvent(q.ctx, tok(math.MaxInt32+1), querydb.RenameEventParams{ID: 1, Kind: "b"})
	var re *querydb.TokenRangeError
	if !errors.As(err, &re) || !errors.Is(err, querydb.ErrTokenOutOfRange) || re.Max != math.MaxInt32 {
		t.Fatalf("got %v, want a *TokenRangeError up to MaxInt32", err)
	}
	if err := q.f.RenameEvent(q.ctx, tok(math.MaxInt32), querydb.RenameEventParams{ID: 1, Kind: "b"}); err != nil {
		t.Fatal(err)
	}
}

// upsertFromQuery fences INSERT ... SELECT ... ON CONFLICT DO UPDATE: the
// check runs the query again to find the rows it upserted.
func (q *queriesCase) upsertFromQuery(t *testing.T) {
	q.t = t
	q.create(300, "ivy", "i")
	for _, tag := range []string{"q-red", "q-blue"} {
		if err := q.db.TagDoc(q.ctx, querydb.TagDocParams{DocID: 300, Tag: tag}); err != nil {
			t.Fatal(err)
		}
	}
	if w, err := q.f.CountTags(q.ctx, tok(5), querydb.CountTagsParams{DocID: 300}); err != nil || w != (querydb.Written{Rows: 2}) {
		t.Fatalf("CountTags (insert) = %+v, %v; want 2 rows", w, err)
	}
	if n, fence := q.counter("q-red"); n != 1 || fence != 5 {
		t.Fatalf("q-red = %d fence %d, want 1 fence 5", n, fence)
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
	// Nothing selected: nothing written, nothing stale.
	if w, err := q.f.CountTags(q.ctx, tok(6), querydb.CountTagsParams{DocID: 404}); err != nil || w != (querydb.Written{}) {
		t.Fatalf("CountTags (no tags) = %+v, %v; want nothing", w, err)
	}

	// With the insert's own WITH query and DO UPDATE condition: a row the
	// condition skips is not returned and not stale; a held one is stale.
	reset := func(token int64, names ...string) ([]string, error) {
		return q.f.ResetCounters(q.ctx, tok(token), querydb.ResetCountersParams{Names: names})
	}
	if got, err := reset(8, "q-blue", "q-new"); err != nil || len(got) != 2 {
		t.Fatalf("ResetCounters = %v, %v; want both", got, err)
	}
	if got, err := reset(8, "q-blue", "q-new"); err != nil || len(got) != 0 {
		t.Fatalf("ResetCounters again = %v, %v; want none (already 0), no error", got, err)
	}
	got, err := reset(7, "q-blue", "q-red")
	wantStale(t, err, "counters", 8)
	if len(got) != 1 || got[0] != "q-red" {
		t.Fatalf("ResetCounters = %v, want [q-red] written beside the stale q-blue", got)
	}
}
