package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"os"
	"testing"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/sqlitetest"
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/suite"
	widthsdb "github.com/fencelint/fencelint/testdata/fencegen/golden/sqlite-widths/widthsdb"
)

// TestWidths checks the generated writes at the edges of every declared
// integer type (suite.RunWidths). SQLite stores every integer as a 64-bit
// signed value whatever the declaration says, and sqlc types them int64,
// so every token is stored exactly: math.MinInt64 and math.MaxInt64 round
// trip, and nothing is refused.
func TestWidths(t *testing.T) {
	ctx := context.Background()
	schema, err := os.ReadFile("../../golden/sqlite-widths/schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	db := sqlitetest.Open(t)
	if _, err := db.ExecContext(ctx, string(schema)); err != nil {
		t.Fatalf("apply schema: %v", err)
	}
	closed := sqlitetest.Open(t)
	closed.Close()
	var widths []suite.Width
	for _, name := range []string{"Tinyint", "Smallint", "Mediumint", "Int", "Integer", "Bigint", "UnsignedBigInt"} {
		table := "w_" + snake(name)
		widths = append(widths,
			suite.Width{Table: table, GoName: "W" + name, Min: math.MinInt64, Max: math.MaxInt64},
			suite.Width{Table: table + "_null", GoName: "W" + name + "Null", Min: math.MinInt64, Max: math.MaxInt64})
	}
	suite.RunWidths(t, suite.Widths{
		TokenOf: widthsdb.TokenOf,
		Fenced:  widthsdb.NewFenced(db),
		Closed:  widthsdb.NewFenced(closed),
		OutOfRange: func(err error) (bool, bool, string, int64, int64, int64) {
			var re *widthsdb.TokenRangeError
			if !errors.As(err, &re) {
				return errors.Is(err, widthsdb.ErrTokenOutOfRange), false, "", 0, 0, 0
			}
			return errors.Is(err, widthsdb.ErrTokenOutOfRange), true, re.Table, re.Token.Int64(), re.Min, re.Max
		},
		ReadFence: func(ctx context.Context, table string, id int64) (bool, *int64, error) {
			var fence sql.NullInt64
			err := db.QueryRowContext(ctx, "SELECT fence FROM "+table+" WHERE id = ?", id).Scan(&fence)
			if errors.Is(err, sql.ErrNoRows) {
				return false, nil, nil
			}
			if err != nil || !fence.Valid {
				return err == nil, nil, err
			}
			return true, &fence.Int64, nil
		},
	}, widths)
}

// snake turns a Go name of the widths schema back into its SQL spelling.
func snake(name string) string {
	var out []rune
	for i, r := range name {
		if i > 0 && r >= 'A' && r <= 'Z' {
			out = append(out, '_')
		}
		out = append(out, r|0x20)
	}
	return string(out)
}
