package lease

import (
	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/luascan"
)

// A draw from a counter hands out a number; it protects no data:
//
//	id, err := rdb.Incr(ctx, "seq:orders").Result()
//	n, err := rdb.Eval(ctx, nextIDScript, []string{"id:order"}, first, step).Int64()
//
// Redis steps the number in one command, or in one script, which it runs
// whole, so a holder paused past its lease that draws late takes the next
// number and overwrites nothing another holder wrote. What it does with
// the number (the row it inserts under it) is judged where it does it,
// and a number used as a fencing token is weaktoken's to judge. A counter
// whose number nobody reads (INCRBY balance 100, INCR of a retry count)
// is a write like any other: run again by a stale holder, it counts
// twice. A script counts as a counter when every write it makes steps the
// number stored at one key or sets that key's TTL (luascan's CounterKey:
// INCR, or a SET of what it read there plus an amount, or of a first value
// where it found the key missing).

// drawFence says why a draw needs no fence.
const drawFence = "a draw from a counter: a late draw takes the next number and overwrites nothing"

// markDraw marks w, a write to a counter made by call, fenced when the
// program reads the number it draws.
func markDraw(w *Write, call ssa.CallInstruction) {
	if !w.Fenced && numberRead(call) {
		w.Fenced, w.FencedBy = true, drawFence
	}
}

// scriptCounts reports whether s, a Redis script, is a counter.
func scriptCounts(s *luascan.Script) bool { return s.CounterKey > 0 }

// numberRead reports whether the number a Redis command's reply carries is
// read: Val, Int64 and the like called on it, or Result with its value
// used (not only its error).
func numberRead(call ssa.CallInstruction) bool {
	v := call.Value()
	if v == nil {
		return false
	}
	for _, ref := range *v.Referrers() {
		read, ok := ref.(ssa.CallInstruction)
		if !ok || callRecv(read.Common()) != v {
			continue
		}
		f := calleeFunc(read.Common())
		if f == nil {
			continue
		}
		switch f.Name() {
		case "Val", "Result", "Int", "Int64", "Uint64", "Float64", "Text":
			// Int64 and the like return an error too: `_, err :=
			// cmd.Int64()` reads only the error.
			if resultUsed(read) {
				return true
			}
		}
	}
	return false
}
