package gen

import (
	"math"
	"strings"
)

// tokenRange is the closed range of tokens a fence column stores exactly
// and the Go type sqlc gave its parameter can carry. A token outside it
// would be narrowed (MySQL, or the driver's integer conversion) or fail on
// the server, so the generated code refuses it before sending anything.
type tokenRange struct{ min, max int64 }

// fullRange is every Token: nothing to check.
var fullRange = tokenRange{math.MinInt64, math.MaxInt64}

func (r tokenRange) intersect(o tokenRange) tokenRange {
	return tokenRange{max(r.min, o.min), min(r.max, o.max)}
}

// columnRange is the range of integers the engine stores in a column of
// type typ (as the schema parser names it), clipped to int64, the Token's
// range. SQLite stores every integer as a 64-bit signed value whatever the
// declared type says.
func columnRange(engine Engine, typ string) tokenRange {
	if engine == SQLite {
		return fullRange
	}
	base, unsigned := strings.CutSuffix(typ, " unsigned")
	bits := 64
	switch base {
	case "tinyint":
		bits = 8
	case "int2", "smallint", "smallserial", "serial2":
		bits = 16
	case "mediumint":
		bits = 24
	case "int4", "int", "integer", "serial", "serial4":
		bits = 32
		if engine == MySQL && base == "serial" { // MySQL's SERIAL is BIGINT UNSIGNED
			bits, unsigned = 64, true
		}
	}
	return bitsRange(bits, unsigned)
}

// goIntRange is the range of a plain Go integer type.
func goIntRange(name string) tokenRange {
	switch name {
	case "int8":
		return bitsRange(8, false)
	case "uint8":
		return bitsRange(8, true)
	case "int16":
		return bitsRange(16, false)
	case "uint16":
		return bitsRange(16, true)
	case "int32":
		return bitsRange(32, false)
	case "uint32":
		return bitsRange(32, true)
	case "uint64", "uint":
		return bitsRange(64, true)
	}
	return fullRange
}

// bitsRange is the range of a two's complement or unsigned integer of the
// given width, clipped to int64.
func bitsRange(bits int, unsigned bool) tokenRange {
	switch {
	case bits >= 64 && unsigned:
		return tokenRange{0, math.MaxInt64}
	case bits >= 64:
		return fullRange
	case unsigned:
		return tokenRange{0, 1<<bits - 1}
	}
	return tokenRange{-1 << (bits - 1), 1<<(bits-1) - 1}
}
