package suite

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"testing"
)

// Width is one table of a widths schema (../golden/*-widths/schema.sql):
// id bigint key, body text, and a fence of one integer type. Min and Max
// are the tokens the generated code must store exactly; every other token
// must be refused before anything is sent.
type Width struct {
	Table  string // SQL name, as TokenRangeError.Table names it
	GoName string // Update<GoName>, Upsert<GoName>, Delete<GoName>
	Min    int64
	Max    int64
}

// Widths is a generated widths package bound to a database.
type Widths struct {
	Fenced  any // the package's *Fenced over the live database
	TokenOf any // the package's TokenOf
	// Closed is the package's *Fenced over a closed handle: any statement
	// sent through it fails with the handle's error, so a refusal from it
	// proves the token was checked before anything was sent.
	Closed any
	// OutOfRange reports errors.Is(err, ErrTokenOutOfRange) and, through
	// errors.As, the *TokenRangeError's table, token and bounds.
	OutOfRange func(error) (is bool, as bool, table string, token, min, max int64)
	// ReadFence reads the row's fence with plain SQL (found false when no
	// row has the id; fence nil when NULL).
	ReadFence func(ctx context.Context, table string, id int64) (found bool, fence *int64, err error)
}

// RunWidths checks every table at the edges of its fence's range: the
// smallest and largest storable tokens are written and read back exactly,
// and the tokens just outside are refused by every write with the
// package's typed error, leaving the row as it was. A table whose range is
// every int64 (SQLite, BIGINT) has nothing to refuse and is checked at
// math.MinInt64 and math.MaxInt64.
func RunWidths(t *testing.T, w Widths, widths []Width) {
	for _, wd := range widths {
		t.Run(wd.Table, func(t *testing.T) {
			ctx := context.Background()
			live := widthOps(w.Fenced, w.TokenOf, wd)
			closed := widthOps(w.Closed, w.TokenOf, wd)
			read := func(id int64) (bool, *int64) {
				t.Helper()
				found, fence, err := w.ReadFence(ctx, wd.Table, id)
				if err != nil {
					t.Fatalf("reading the fence of %s row %d: %v", wd.Table, id, err)
				}
				return found, fence
			}
			wantFence := func(id, want int64) {
				t.Helper()
				found, fence := read(id)
				if !found || fence == nil || *fence != want {
					t.Fatalf("%s row %d: fence %s, want %d (stored exactly)", wd.Table, id, showFence(found, fence), want)
				}
			}
			refused := func(what string, token int64, err error) {
				t.Helper()
				is, as, table, tok, lo, hi := w.OutOfRange(err)
				if !is || !as || table != wd.Table || tok != token || lo != wd.Min || hi != wd.Max {
					t.Fatalf("%s with token %d: got %v (ErrTokenOutOfRange %v, *TokenRangeError %v: %s %d %d..%d), want a *TokenRangeError for %s %d..%d",
						what, token, err, is, as, table, tok, lo, hi, wd.Table, wd.Min, wd.Max)
				}
			}
			applied := func(what string, token int64, err error) {
				t.Helper()
				if err != nil {
					t.Fatalf("%s with token %d (in range %d..%d): %v", what, token, wd.Min, wd.Max, err)
				}
			}

			// The smallest token is stored exactly, then the largest.
			applied("upsert", wd.Min, live.upsert(ctx, wd.Min, 1))
			wantFence(1, wd.Min)
			applied("update", wd.Max, live.update(ctx, wd.Max, 1))
			wantFence(1, wd.Max)

			var outside []int64
			if wd.Min > math.MinInt64 {
				outside = append(outside, wd.Min-1, math.MinInt64)
			}
			if wd.Max < math.MaxInt64 {
				// Max+1, and a token that wraps to a small value in the
				// column's width (the lost-update case of a narrowing
				// conversion): 2^32+10 is 10 as an int32 or uint32.
				outside = append(outside, wd.Max+1, 1<<32+10, math.MaxInt64)
			}
			for _, tok := range outside {
				for _, ops := range []struct {
					name string
					o    widthCalls
				}{{"live", live}, {"closed handle", closed}} {
					refused(ops.name+" update", tok, ops.o.update(ctx, tok, 1))
					refused(ops.name+" upsert", tok, ops.o.upsert(ctx, tok, 2))
					refused(ops.name+" delete", tok, ops.o.delete(ctx, tok, 1))
				}
				wantFence(1, wd.Max)
				if found, fence := read(2); found {
					t.Fatalf("%s: a refused upsert with token %d inserted row 2 (fence %s)", wd.Table, tok, showFence(found, fence))
				}
			}

			// The largest token still deletes the row it wrote.
			applied("delete", wd.Max, live.delete(ctx, wd.Max, 1))
			if found, fence := read(1); found {
				t.Fatalf("%s: row 1 survived its delete (fence %s)", wd.Table, showFence(found, fence))
			}
		})
	}
}

func showFence(found bool, fence *int64) string {
	switch {
	case !found:
		return "(no row)"
	case fence == nil:
		return "NULL"
	}
	return fmt.Sprint(*fence)
}

// widthCalls are the generated writes of one widths table.
type widthCalls struct {
	update, upsert func(ctx context.Context, token, id int64) error
	delete         func(ctx context.Context, token, id int64) error
}

// widthOps calls Update/Upsert/Delete<GoName> of fenced by reflection, as
// methodOps does for the behaviour suite.
func widthOps(fenced, tokenOf any, wd Width) widthCalls {
	call := func(ctx context.Context, op string, token, id int64, body bool) error {
		m := reflect.ValueOf(fenced).MethodByName(op + wd.GoName)
		if !m.IsValid() {
			return fmt.Errorf("generated package has no method %s%s", op, wd.GoName)
		}
		params := reflect.New(m.Type().In(2)).Elem()
		params.FieldByName("ID").SetInt(id)
		if body {
			params.FieldByName("Body").SetString(fmt.Sprint("body ", token))
		}
		out := m.Call([]reflect.Value{reflect.ValueOf(ctx), tokenValue(tokenOf, token), params})
		err, _ := out[0].Interface().(error)
		return err
	}
	return widthCalls{
		update: func(ctx context.Context, token, id int64) error { return call(ctx, "Update", token, id, true) },
		upsert: func(ctx context.Context, token, id int64) error { return call(ctx, "Upsert", token, id, true) },
		delete: func(ctx context.Context, token, id int64) error { return call(ctx, "Delete", token, id, false) },
	}
}
