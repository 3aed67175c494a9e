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
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/suite"
	widthsdb "github.com/fencelint/fencelint/testdata/fencegen/golden/postgres-widths/widthsdb"
)

// widths are the tables of ../../golden/postgres-widths/schema.sql and the
// tokens their fences store (the token travels as bigint; the column's
// type bounds it).
var widths = []suite.Width{
	{Table: "w_smallint", GoName: "WSmallint", Min: math.MinInt16, Max: math.MaxInt16},
	{Table: "w_smallint_null", GoName: "WSmallintNull", Min: math.MinInt16, Max: math.MaxInt16},
	{Table: "w_integer", GoName: "WInteger", Min: math.MinInt32, Max: math.MaxInt32},
	{Table: "w_integer_null", GoName: "WIntegerNull", Min: math.MinInt32, Max: math.MaxInt32},
	{Table: "w_bigint", GoName: "WBigint", Min: math.MinInt64, Max: math.MaxInt64},
	{Table: "w_bigint_null", GoName: "WBigintNull", Min: math.MinInt64, Max: math.MaxInt64},
}

// runWidths checks the generated writes at the edges of every fence width
// (suite.RunWidths) in a fresh database on server.
func runWidths(t *testing.T, server *pgtest.Server) {
	ctx := context.Background()
	schema, err := os.ReadFile("../../golden/postgres-widths/schema.sql")
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
	closed, err := pgxpool.New(ctx, server.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	suite.RunWidths(t, suite.Widths{
		TokenOf: widthsdb.TokenOf,
		Fenced:  widthsdb.NewFenced(pool),
		Closed:  widthsdb.NewFenced(closed),
		OutOfRange: func(err error) (bool, bool, string, int64, int64, int64) {
			var re *widthsdb.TokenRangeError
			if !errors.As(err, &re) {
				return errors.Is(err, widthsdb.ErrTokenOutOfRange), false, "", 0, 0, 0
			}
			return errors.Is(err, widthsdb.ErrTokenOutOfRange), true, re.Table, re.Token.Int64(), re.Min, re.Max
		},
		ReadFence: func(ctx context.Context, table string, id int64) (bool, *int64, error) {
			var fence *int64
			err := pool.QueryRow(ctx, "SELECT fence::bigint FROM "+table+" WHERE id = $1", id).Scan(&fence)
			if errors.Is(err, pgx.ErrNoRows) {
				return false, nil, nil
			}
			return err == nil, fence, err
		},
	}, widths)
}
