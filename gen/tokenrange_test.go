package gen

import (
	"math"
	"testing"
)

func TestColumnRange(t *testing.T) {
	for _, c := range []struct {
		engine   Engine
		typ      string
		min, max int64
	}{
		{MySQL, "tinyint", -128, 127},
		{MySQL, "tinyint unsigned", 0, 255},
		{MySQL, "smallint", -32768, 32767},
		{MySQL, "smallint unsigned", 0, 65535},
		{MySQL, "mediumint", -8388608, 8388607},
		{MySQL, "mediumint unsigned", 0, 16777215},
		{MySQL, "int", math.MinInt32, math.MaxInt32},
		{MySQL, "int unsigned", 0, math.MaxUint32},
		{MySQL, "bigint", math.MinInt64, math.MaxInt64},
		{MySQL, "bigint unsigned", 0, math.MaxInt64},
		{MySQL, "serial", 0, math.MaxInt64},
		{PostgreSQL, "int2", math.MinInt16, math.MaxInt16},
		{PostgreSQL, "smallserial", math.MinInt16, math.MaxInt16},
		{PostgreSQL, "int4", math.MinInt32, math.MaxInt32},
		{PostgreSQL, "serial", math.MinInt32, math.MaxInt32},
		{PostgreSQL, "int8", math.MinInt64, math.MaxInt64},
		{SQLite, "tinyint", math.MinInt64, math.MaxInt64},
		{SQLite, "unsigned big int", math.MinInt64, math.MaxInt64},
	} {
		if got := columnRange(c.engine, c.typ); got != (tokenRange{c.min, c.max}) {
			t.Errorf("columnRange(%s, %q) = %d..%d, want %d..%d", c.engine, c.typ, got.min, got.max, c.min, c.max)
		}
	}
}

// TestTokenRangeNarrowedBySQLCType covers sqlc's nullable types, which can
// be narrower than the column: a nullable INT UNSIGNED travels as
// sql.NullInt32.
func TestTokenRangeNarrowedBySQLCType(t *testing.T) {
	got := columnRange(MySQL, "int unsigned").intersect(goIntRange("int32"))
	if want := (tokenRange{0, math.MaxInt32}); got != want {
		t.Errorf("int unsigned as int32: %v, want %v", got, want)
	}
	got = columnRange(MySQL, "bigint unsigned").intersect(goIntRange("uint64"))
	if want := (tokenRange{0, math.MaxInt64}); got != want {
		t.Errorf("bigint unsigned as uint64: %v, want %v", got, want)
	}
}
