package postgres_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/pgtest"
	typessql "github.com/fencelint/fencelint/testdata/fencegen/golden/postgres-types-stdlib/typesdb"
	typesdb "github.com/fencelint/fencelint/testdata/fencegen/golden/postgres-types/typesdb"
)

// runTypes writes a fenced table with a column of every type sqlc maps
// (../../golden/postgres-types/schema.sql) through both drivers' generated
// code: ranges, multiranges and arrays of ranges travel as pgx's generic
// types, and the fence still rejects a stale token.
func runTypes(t *testing.T, server *pgtest.Server) {
	ctx := context.Background()
	schema, err := os.ReadFile("../../golden/postgres-types/schema.sql")
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
	int4 := func(lo, hi int32) pgtype.Range[pgtype.Int4] {
		return pgtype.Range[pgtype.Int4]{
			Lower: pgtype.Int4{Int32: lo, Valid: true}, Upper: pgtype.Int4{Int32: hi, Valid: true},
			LowerType: pgtype.Inclusive, UpperType: pgtype.Exclusive, Valid: true,
		}
	}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	during := pgtype.Range[pgtype.Timestamptz]{
		Lower: pgtype.Timestamptz{Time: start, Valid: true}, Upper: pgtype.Timestamptz{Time: start.Add(time.Hour), Valid: true},
		LowerType: pgtype.Inclusive, UpperType: pgtype.Exclusive, Valid: true,
	}
	f := typesdb.NewFenced(pool)
	err = f.UpsertEverything(ctx, typesdb.TokenOf(5), typesdb.UpsertEverythingParams{
		ID: 1, Ids: int4(1, 10), During: during, IDRanges: []pgtype.Range[pgtype.Int4]{int4(1, 2), int4(5, 7)},
		Idsm:    pgtype.Multirange[pgtype.Range[pgtype.Int4]]{int4(1, 3), int4(8, 9)},
		Tags:    []string{"a", "b"},
		Feeling: typesdb.NullMood{Mood: typesdb.MoodOk, Valid: true},
	})
	if err != nil {
		t.Fatalf("pgx upsert of every type: %v", err)
	}
	if err := f.UpdateEverything(ctx, typesdb.TokenOf(6), typesdb.UpdateEverythingParams{ID: 1, Ids: int4(20, 30)}); err != nil {
		t.Fatalf("pgx update with a newer token: %v", err)
	}
	if err := f.UpdateEverything(ctx, typesdb.TokenOf(5), typesdb.UpdateEverythingParams{ID: 1, Ids: int4(40, 50)}); !errors.Is(err, typesdb.ErrStale) {
		t.Fatalf("pgx update with an older token: %v, want ErrStale", err)
	}
	var ids string
	var fence int64
	if err := pool.QueryRow(ctx, "SELECT ids::text, fence FROM everything WHERE id = 1").Scan(&ids, &fence); err != nil {
		t.Fatal(err)
	}
	if ids != "[20,30)" || fence != 6 {
		t.Fatalf("row after the writes: ids %s fence %d, want [20,30) fence 6", ids, fence)
	}

	db := stdlib.OpenDBFromPool(pool)
	t.Cleanup(func() { db.Close() })
	g := typessql.NewFenced(db)
	if err := g.UpsertEverything(ctx, typessql.TokenOf(7), typessql.UpsertEverythingParams{ID: 2, Ids: "[1,4)", IDRanges: []any{"[1,2)"}}); err != nil {
		t.Fatalf("database/sql upsert of every type: %v", err)
	}
	if err := g.DeleteEverything(ctx, typessql.TokenOf(6), typessql.DeleteEverythingParams{ID: 2}); !errors.Is(err, typessql.ErrStale) {
		t.Fatalf("database/sql delete with an older token: %v, want ErrStale", err)
	}
}
