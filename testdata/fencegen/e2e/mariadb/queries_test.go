package mariadb_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/mariadbtest"
	"github.com/fencelint/fencelint/testdata/fencegen/golden/mysql-queries/querydb"
)

// TestQueries runs the users' own queries that fencegen fenced (golden
// case mysql-queries, fence <= token) against a real MariaDB, with
// clientFoundRows on and off: every outcome a method reports is checked
// against the rows it left.
func TestQueries(t *testing.T) {
	server := mariadbtest.New(t)
	schema, err := os.ReadFile("../../golden/mysql-queries/schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, foundRows := range []bool{false, true} {
		t.Run(fmt.Sprintf("clientFoundRows=%v", foundRows), func(t *testing.T) {
			ctx := context.Background()
			pool := openDB(t, server, foundRows)
			if _, err := pool.ExecContext(ctx, string(schema)); err != nil {
				t.Fatalf("apply schema: %v", err)
			}
			q := &queriesCase{t: t, ctx: ctx, pool: pool, f: querydb.NewFenced(pool), db: querydb.New(pool)}
			t.Run("exec update", q.execUpdate)
			t.Run("execrows update", q.execRowsUpdate)
			t.Run("execrows update with order and limit", q.limitedUpdate)
			t.Run("exec delete", q.execDelete)
			t.Run("execrows delete", q.execRowsDelete)
			t.Run("exec upsert", q.execUpsert)
			t.Run("execrows upsert of many rows", q.execRowsUpsert)
			t.Run("upsert of an AUTO_INCREMENT table", q.autoIncrementUpsert)
			t.Run("exec upsert from a SELECT", q.upsertFromSelect)
			t.Run("unfenced and pass-through", q.passThrough)
		})
	}
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
	err := q.pool.QueryRowContext(q.ctx, "SELECT title, status, fence FROM docs WHERE id = ?", id).Scan(&title, &status, &fence)
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
	// The same token writing identical values: MySQL may report no change.
	if err := q.f.SetDocTitle(q.ctx, tok(5), querydb.SetDocTitleParams{ID: 1, Title: "five again"}); err != nil {
		t.Fatalf("an identical rewrite with the same token: %v", err)
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
	}
	if err := q.f.SetDocTitle(q.ctx, tok(60), querydb.SetDocTitleParams{ID: 51, Title: "g"}); err != nil {
		t.Fatal(err)
	}
	w, err := q.f.PurgeOwner(q.ctx, tok(55), querydb.PurgeOwnerParams{Owner: "gus"})
	wantStale(t, err, "docs", 60)
	if w != (querydb.Written{Rows: 1, Stale: 1}) {
		t.Fatalf("Written = %+v, want 1 row, 1 stale", w)
	}
	if _, _, _, ok := q.doc(51); !ok {
		t.Fatal("the stale row was deleted")
	}
	if _, _, _, ok := q.doc(50); ok {
		t.Fatal("the admitted row was left")
	}
}

func (q *queriesCase) limitedUpdate(t *testing.T) {
	q.t = t
	for _, id := range []int64{60, 61} {
		q.create(id, "zed", "z")
	}
	if w, err := q.f.RetitleFirst(q.ctx, tok(3), querydb.RetitleFirstParams{Title: "first", Owner: "zed"}); err != nil || w != (querydb.Written{Rows: 1}) {
		t.Fatalf("RetitleFirst = %+v, %v; want 1 row", w, err)
	}
	q.wantDoc(60, "first", "draft", 3)
	if err := q.f.SetDocTitle(q.ctx, tok(9), querydb.SetDocTitleParams{ID: 60, Title: "held"}); err != nil {
		t.Fatal(err)
	}
	// The fence condition comes before ORDER BY and LIMIT: the held row is
	// passed over, the next one written, and the held one counted stale.
	w, err := q.f.RetitleFirst(q.ctx, tok(4), querydb.RetitleFirstParams{Title: "second", Owner: "zed"})
	wantStale(t, err, "docs", 9)
	if w != (querydb.Written{Rows: 1, Stale: 1}) {
		t.Fatalf("Written = %+v, want 1 row, 1 stale", w)
	}
	q.wantDoc(60, "held", "draft", 9)
	q.wantDoc(61, "second", "draft", 4)
	// A held row beyond the limit is counted stale too: a newer holder has
	// written, whichever rows this batch took.
	q.create(62, "zed", "z")
	if err := q.f.SetDocTitle(q.ctx, tok(10), querydb.SetDocTitleParams{ID: 62, Title: "held too"}); err != nil {
		t.Fatal(err)
	}
	if err := q.f.SetDocTitle(q.ctx, tok(9), querydb.SetDocTitleParams{ID: 60, Title: "held"}); err != nil {
		t.Fatal(err)
	}
	w, err = q.f.RetitleFirst(q.ctx, tok(9), querydb.RetitleFirstParams{Title: "third", Owner: "zed"})
	wantStale(t, err, "docs", 10)
	if w != (querydb.Written{Rows: 1, Stale: 1}) {
		t.Fatalf("Written = %+v, want 1 row (the first by id), 1 stale (beyond the limit)", w)
	}
	q.wantDoc(60, "third", "draft", 9)
	q.wantDoc(62, "held too", "draft", 10)
}

func (q *queriesCase) passThrough(t *testing.T) {
	q.t = t
	// ResetDrafts is marked unfenced: sqlc's method, on Queries, no token.
	n, err := q.db.ResetDrafts(q.ctx)
	if err != nil || n == 0 {
		t.Fatalf("ResetDrafts = %d, %v", n, err)
	}
	if err := q.db.TagDoc(q.ctx, querydb.TagDocParams{DocID: 1, Tag: "t"}); err != nil {
		t.Fatal(err)
	}
	d, err := q.db.GetDoc(q.ctx, querydb.GetDocParams{ID: 1})
	if err != nil || d.Status != "draft" {
		t.Fatalf("GetDoc = %+v, %v", d, err)
	}
}

// oneConn runs the rest of a test on one connection, so that what a fenced
// upsert leaves in the session (LAST_INSERT_ID) is seen by the next one.
func (q *queriesCase) oneConn() *querydb.Fenced {
	q.t.Helper()
	conn, err := q.pool.Conn(q.ctx)
	if err != nil {
		q.t.Fatal(err)
	}
	q.t.Cleanup(func() { conn.Close() })
	return querydb.NewFenced(conn)
}

func (q *queriesCase) execUpsert(t *testing.T) {
	q.t = t
	f := q.oneConn()
	save := func(token, id int64, title string) error {
		return f.SaveDoc(q.ctx, tok(token), querydb.SaveDocParams{ID: id, Owner: "hal", Title: title})
	}
	// Missing row: inserted with the token as its fence.
	if err := save(5, 70, "new"); err != nil {
		t.Fatal(err)
	}
	q.wantDoc(70, "new", "draft", 5)
	// Equal token: the holder rewrites its own row, also with identical
	// values (which MySQL reports as unchanged without clientFoundRows).
	for range 2 {
		if err := save(5, 70, "again"); err != nil {
			t.Fatal(err)
		}
	}
	q.wantDoc(70, "again", "draft", 5)
	if _, err := f.PublishOwnerDocs(q.ctx, tok(7), querydb.PublishOwnerDocsParams{Owner: "hal"}); err != nil {
		t.Fatal(err)
	}
	// Older token: nothing changes, not even the assignment of a constant.
	wantStale(t, save(6, 70, "six"), "docs", -1)
	q.wantDoc(70, "again", "published", 7)
	// Newer token after a stale one on the same connection: written.
	if err := save(8, 70, "eight"); err != nil {
		t.Fatal(err)
	}
	q.wantDoc(70, "eight", "draft", 8)
	// A NULL fence (a row never written under fencing) admits any token.
	q.create(71, "hal", "plain")
	if err := save(1, 71, "one"); err != nil {
		t.Fatal(err)
	}
	q.wantDoc(71, "one", "draft", 1)
}

// counter reads a counters row; ok false if missing.
func (q *queriesCase) counter(name string) (n, fence int64, ok bool) {
	q.t.Helper()
	err := q.pool.QueryRowContext(q.ctx, "SELECT n, fence FROM counters WHERE name = ?", name).Scan(&n, &fence)
	return n, fence, err == nil
}

func (q *queriesCase) wantCounter(name string, n, fence int64) {
	q.t.Helper()
	gotN, gotFence, ok := q.counter(name)
	if !ok || gotN != n || gotFence != fence {
		q.t.Fatalf("counter %s = (%d, %d, %v), want (%d, %d)", name, gotN, gotFence, ok, n, fence)
	}
}

func (q *queriesCase) execRowsUpsert(t *testing.T) {
	q.t = t
	f := q.oneConn()
	bump := func(token int64) (querydb.Written, error) {
		return f.BumpCounters(q.ctx, tok(token), querydb.BumpCountersParams{Name: "a", Other: "b"})
	}
	if w, err := bump(5); err != nil || w != (querydb.Written{Rows: 2}) {
		t.Fatalf("BumpCounters(5) on no rows = %+v, %v; want 2 rows", w, err)
	}
	q.wantCounter("a", 1, 5)
	q.wantCounter("b", 1, 5)
	if w, err := bump(5); err != nil || w != (querydb.Written{Rows: 2}) {
		t.Fatalf("BumpCounters(5) again = %+v, %v; want 2 rows", w, err)
	}
	q.wantCounter("a", 2, 5)
	// A newer holder takes b: the next bump writes a and counts b stale.
	if err := f.UpsertCounter(q.ctx, tok(9), querydb.UpsertCounterParams{Name: "b", N: 100}); err != nil {
		t.Fatal(err)
	}
	w, err := bump(6)
	wantStale(t, err, "counters", -1)
	if w != (querydb.Written{Rows: 1, Stale: 1}) {
		t.Fatalf("Written = %+v, want 1 row, 1 stale", w)
	}
	q.wantCounter("a", 3, 6)
	q.wantCounter("b", 100, 9)
	// Every row held by a newer token.
	w, err = bump(4)
	wantStale(t, err, "counters", -1)
	if w != (querydb.Written{Stale: 2}) {
		t.Fatalf("Written = %+v, want 0 rows, 2 stale", w)
	}
	q.wantCounter("a", 3, 6)
	// The count starts afresh with each statement on the connection.
	if w, err := bump(9); err != nil || w != (querydb.Written{Rows: 2}) {
		t.Fatalf("BumpCounters(9) = %+v, %v; want 2 rows", w, err)
	}
	q.wantCounter("a", 4, 9)
	q.wantCounter("b", 101, 9)
}

func (q *queriesCase) autoIncrementUpsert(t *testing.T) {
	q.t = t
	f := q.oneConn()
	see := func(token int64) error {
		return f.SeeEvent(q.ctx, tok(token), querydb.SeeEventParams{Name: "boot"})
	}
	seen := func(n, fence int64) {
		t.Helper()
		var gotN, gotFence int64
		if err := q.pool.QueryRowContext(q.ctx, "SELECT seen, fence FROM events WHERE name = 'boot'").Scan(&gotN, &gotFence); err != nil || gotN != n || gotFence != fence {
			t.Fatalf("event boot = (%d, %d, %v), want (%d, %d)", gotN, gotFence, err, n, fence)
		}
	}
	// Inserted: MySQL reports the new AUTO_INCREMENT id, not a rejection.
	if err := see(3); err != nil {
		t.Fatal(err)
	}
	seen(1, 3)
	wantStale(t, see(2), "events", -1)
	seen(1, 3)
	if err := see(3); err != nil {
		t.Fatal(err)
	}
	seen(2, 3)
	if err := see(4); err != nil {
		t.Fatal(err)
	}
	seen(3, 4)
}

// upsertFromSelect runs CopyDrafts, INSERT ... SELECT ... ON DUPLICATE KEY
// UPDATE from drafts (whose columns, fence too, have the same names): the
// rows a newer token holds are kept and make it stale, the others are
// written, and the count of rejected rows starts afresh with each
// statement whatever the session's LAST_INSERT_ID() was.
func (q *queriesCase) upsertFromSelect(t *testing.T) {
	q.t = t
	conn, err := q.pool.Conn(q.ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	f := querydb.NewFenced(conn)
	exec := func(query string, args ...any) {
		t.Helper()
		if _, err := conn.ExecContext(q.ctx, query, args...); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}
	exec("INSERT INTO drafts (id, owner, title, fence) VALUES (201, 'dra', 'n1', 0), (202, 'dra', 'n2', 0), (203, 'dra', 'n3', 0), (204, 'other', 'x', 0)")
	q.create(201, "dra", "o1")
	q.create(202, "dra", "o2")
	exec("UPDATE docs SET fence = 5, status = 'published' WHERE id = 201")
	exec("UPDATE docs SET fence = 20 WHERE id = 202")
	wantDoc := func(id int64, title, status string, fence int64) {
		t.Helper()
		gotTitle, gotStatus, gotFence, ok := q.doc(id)
		if !ok || gotTitle != title || gotStatus != status || gotFence == nil || *gotFence != fence {
			t.Fatalf("doc %d = (%q, %q, %v, %v), want (%q, %q, %d)", id, gotTitle, gotStatus, gotFence, ok, title, status, fence)
		}
	}
	copyDrafts := func(token int64) error {
		return f.CopyDrafts(q.ctx, tok(token), querydb.CopyDraftsParams{Owner: "dra"})
	}
	// 201 is admitted, 202 held by a newer token, 203 inserted.
	wantStale(t, copyDrafts(10), "docs", -1)
	wantDoc(201, "n1", "draft", 10)
	wantDoc(202, "o2", "draft", 20)
	wantDoc(203, "n3", "draft", 10)
	if _, _, _, ok := q.doc(204); ok {
		t.Fatal("CopyDrafts copied another owner's draft")
	}
	// A session whose LAST_INSERT_ID() already looks like a count: the
	// statement counts from its own base, so every row admitted is no error.
	exec("SELECT LAST_INSERT_ID(18446744069414584325)")
	exec("UPDATE drafts SET title = CONCAT(title, '+')")
	if err := copyDrafts(30); err != nil {
		t.Fatalf("CopyDrafts(30) = %v, want every row written", err)
	}
	wantDoc(201, "n1+", "draft", 30)
	wantDoc(202, "n2+", "draft", 30)
	wantDoc(203, "n3+", "draft", 30)
	// Every row held by a newer token: stale, nothing written.
	exec("UPDATE drafts SET title = 'late'")
	wantStale(t, copyDrafts(25), "docs", -1)
	wantDoc(202, "n2+", "draft", 30)
	// A SELECT that gives no row writes nothing and is no error.
	if err := f.CopyDrafts(q.ctx, tok(40), querydb.CopyDraftsParams{Owner: "nobody"}); err != nil {
		t.Fatalf("CopyDrafts of no drafts = %v, want nil", err)
	}
	// Each statement counts from its own base: an admitted run right after
	// a rejecting one on the same connection is no error.
	exec("UPDATE drafts SET title = 'fresh'")
	if err := copyDrafts(30); err != nil {
		t.Fatalf("CopyDrafts(30) after a stale run = %v, want nil", err)
	}
	wantDoc(203, "fresh", "draft", 30)
}
