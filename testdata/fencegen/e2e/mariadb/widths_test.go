package mariadb_test

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"os"
	"testing"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/mariadbtest"
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/suite"
	widthsdb "github.com/fencelint/fencelint/testdata/fencegen/golden/mysql-widths/widthsdb"
)

// widths are the tables of ../../golden/mysql-widths/schema.sql and the
// tokens their fences store: the column's range, narrowed where sqlc's Go
// type for a nullable column is narrower (a nullable SMALLINT UNSIGNED
// travels as sql.NullInt16, a nullable INT UNSIGNED as sql.NullInt32), and
// no negative token in an unsigned column.
var widths = []suite.Width{
	{Table: "w_tinyint", GoName: "WTinyint", Min: math.MinInt8, Max: math.MaxInt8},
	{Table: "w_tinyint_null", GoName: "WTinyintNull", Min: math.MinInt8, Max: math.MaxInt8},
	{Table: "w_tinyint_unsigned", GoName: "WTinyintUnsigned", Min: 0, Max: math.MaxUint8},
	{Table: "w_tinyint_unsigned_null", GoName: "WTinyintUnsignedNull", Min: 0, Max: math.MaxUint8},
	{Table: "w_smallint", GoName: "WSmallint", Min: math.MinInt16, Max: math.MaxInt16},
	{Table: "w_smallint_null", GoName: "WSmallintNull", Min: math.MinInt16, Max: math.MaxInt16},
	{Table: "w_smallint_unsigned", GoName: "WSmallintUnsigned", Min: 0, Max: math.MaxUint16},
	{Table: "w_smallint_unsigned_null", GoName: "WSmallintUnsignedNull", Min: 0, Max: math.MaxInt16},
	{Table: "w_mediumint", GoName: "WMediumint", Min: -1 << 23, Max: 1<<23 - 1},
	{Table: "w_mediumint_null", GoName: "WMediumintNull", Min: -1 << 23, Max: 1<<23 - 1},
	{Table: "w_mediumint_unsigned", GoName: "WMediumintUnsigned", Min: 0, Max: 1<<24 - 1},
	{Table: "w_mediumint_unsigned_null", GoName: "WMediumintUnsignedNull", Min: 0, Max: 1<<24 - 1},
	{Table: "w_int", GoName: "WInt", Min: math.MinInt32, Max: math.MaxInt32},
	{Table: "w_int_null", GoName: "WIntNull", Min: math.MinInt32, Max: math.MaxInt32},
	{Table: "w_int_unsigned", GoName: "WIntUnsigned", Min: 0, Max: math.MaxUint32},
	{Table: "w_int_unsigned_null", GoName: "WIntUnsignedNull", Min: 0, Max: math.MaxInt32},
	{Table: "w_bigint", GoName: "WBigint", Min: math.MinInt64, Max: math.MaxInt64},
	{Table: "w_bigint_null", GoName: "WBigintNull", Min: math.MinInt64, Max: math.MaxInt64},
	{Table: "w_bigint_unsigned", GoName: "WBigintUnsigned", Min: 0, Max: math.MaxInt64},
	{Table: "w_bigint_unsigned_null", GoName: "WBigintUnsignedNull", Min: 0, Max: math.MaxInt64},
}

// runWidths checks the generated writes at the edges of every fence width
// (suite.RunWidths) in a fresh database on server. The session runs in
// MariaDB's non-strict mode as well as its default strict mode: without
// strict mode the server itself would clip an out-of-range token silently.
func runWidths(t *testing.T, server *mariadbtest.Server) {
	for _, mode := range []string{"default", "non-strict"} {
		t.Run(mode, func(t *testing.T) {
			ctx := context.Background()
			schema, err := os.ReadFile("../../golden/mysql-widths/schema.sql")
			if err != nil {
				t.Fatal(err)
			}
			db := openDB(t, server, true)
			if mode == "non-strict" {
				db.SetMaxOpenConns(1) // the session variable holds on the one connection
				if _, err := db.ExecContext(ctx, "SET SESSION sql_mode = ''"); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.ExecContext(ctx, string(schema)); err != nil {
				t.Fatalf("apply schema: %v", err)
			}
			closed := openDB(t, server, true)
			closed.Close()
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
		})
	}
}
