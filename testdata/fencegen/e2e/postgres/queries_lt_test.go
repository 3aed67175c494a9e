package postgres_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/pgtest"
	querydb "github.com/fencelint/fencelint/testdata/fencegen/golden/postgres-queries-lt/querydb"
)

// TestQueriesLessThan runs upserts from a SELECT fenced with compare "<"
// (golden case postgres-queries-lt) against a real PostgreSQL. It pins the
// one imprecision docs/fencegen.md documents: a :one upsert whose SELECT
// writes k > 1 rows reports k-1 of them stale (its check counts the rows
// at the token, and :one knows of one written row), while :many is exact.
func TestQueriesLessThan(t *testing.T) {
	server := pgtest.New(t)
	ctx := context.Background()
	schema, err := os.ReadFile("../../golden/postgres-queries-lt/schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, server.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := pool.Exec(ctx, string(schema)+"\nINSERT INTO drafts VALUES (1, 'a'), (2, 'b');"); err != nil {
		t.Fatalf("apply schema: %v", err)
	}
	f := querydb.NewFenced(pool)
	tok := querydb.TokenOf
	fences := func(want ...int64) {
		t.Helper()
		for i, w := range want {
			var got int64
			if err := pool.QueryRow(ctx, "SELECT fence FROM docs WHERE id = $1", i+1).Scan(&got); err != nil || got != w {
				t.Fatalf("doc %d fence = %d (%v), want %d", i+1, got, err, w)
			}
		}
	}
	staleAt := func(err error, current int64) {
		t.Helper()
		var se *querydb.StaleError
		if !errors.As(err, &se) || se.Current == nil || se.Current.Int64() != current {
			t.Fatalf("got %v, want a *StaleError with Current %d", err, current)
		}
	}

	// One row from the SELECT: exact.
	if row, err := f.CopyDraft(ctx, tok(5), querydb.CopyDraftParams{Ids: []int64{1}}); err != nil || row.ID != 1 {
		t.Fatalf("CopyDraft(5, [1]) = %+v, %v; want doc 1 written", row, err)
	}
	// Under "<" the same token does not write a row twice: stale.
	_, err = f.CopyDraft(ctx, tok(5), querydb.CopyDraftParams{Ids: []int64{1}})
	staleAt(err, 5)

	// Two rows, both written: :one reports the second as stale (documented).
	row, err := f.CopyDraft(ctx, tok(6), querydb.CopyDraftParams{Ids: []int64{1, 2}})
	staleAt(err, 6)
	if row.ID != 1 {
		t.Fatalf("CopyDraft(6, [1 2]) returned doc %d, want 1", row.ID)
	}
	fences(6, 6) // yet both were written

	// :many counts the rows it was given back: exact.
	rows, err := f.CopyDrafts(ctx, tok(7), querydb.CopyDraftsParams{Ids: []int64{1, 2}})
	if err != nil || len(rows) != 2 {
		t.Fatalf("CopyDrafts(7, [1 2]) = %d rows, %v; want 2 rows, nil", len(rows), err)
	}
	fences(7, 7)
	if _, err := pool.Exec(ctx, "UPDATE docs SET fence = 9 WHERE id = 2"); err != nil {
		t.Fatal(err)
	}
	rows, err = f.CopyDrafts(ctx, tok(8), querydb.CopyDraftsParams{Ids: []int64{1, 2}})
	staleAt(err, 9)
	if len(rows) != 1 {
		t.Fatalf("CopyDrafts(8, [1 2]) = %d rows, want 1 (doc 2 is held by 9)", len(rows))
	}
	fences(8, 9)
}
