// Package fencecheck checks a recorded history of concurrent fenced writes
// against the guarantee a fence gives: once a write with token T has been
// accepted, no write with a lower token (or, with strict comparison, an equal
// one) is accepted after it.
//
// The store is a black box, so "after" means real-time order: each write
// records a start and an end stamp taken from one shared counter just before
// the call and just after it returned. Write A precedes write B when A.End <
// B.Start; writes whose intervals overlap may be ordered either way.
package fencecheck

import (
	"errors"
	"fmt"
	"slices"
)

// Comparison is the fence predicate under test.
type Comparison int

const (
	// AtMost accepts a token equal to the stored fence (fence <= token): one
	// token per lease tenure, several writes per token.
	AtMost Comparison = iota
	// Below accepts only a strictly greater token (fence < token).
	Below
)

// Write is one attempted write in a history.
type Write struct {
	Row     int   // which row was written
	Token   int64 // fencing token the writer held
	Value   int64 // value it tried to store; unique across the history
	Applied bool  // the store accepted the write
	Current int64 // for a rejected write: the fence the stale error reported
	Start   int64 // stamp taken just before the call
	End     int64 // stamp taken just after it returned
}

// Final is a row as read after every writer finished.
type Final struct {
	Fence int64
	Value int64
}

// Check returns an error describing every violation in history, given the
// final state of each row, or nil if the history is consistent with a
// correct fence. Every row starts unfenced (fence 0 or NULL) and tokens are
// positive.
func Check(cmp Comparison, history []Write, final map[int]Final) error {
	var errs []error
	for _, row := range rows(history) {
		writes := forRow(history, row)
		errs = append(errs, checkOrder(cmp, writes)...)
		errs = append(errs, checkRejections(cmp, writes)...)
		errs = append(errs, checkFinal(row, writes, final)...)
	}
	return errors.Join(errs...)
}

// accepts reports whether a store whose fence is fence accepts token.
func (cmp Comparison) accepts(fence, token int64) bool {
	if cmp == Below {
		return fence < token
	}
	return fence <= token
}

// checkOrder reports applied writes that the fence should have rejected
// because an applied write with a higher token had already finished.
func checkOrder(cmp Comparison, writes []Write) []error {
	var errs []error
	for _, later := range writes {
		if !later.Applied {
			continue
		}
		for _, earlier := range writes {
			if earlier.Applied && earlier.End < later.Start && earlier != later && !cmp.accepts(earlier.Token, later.Token) {
				errs = append(errs, fmt.Errorf("row %d: write of %d with token %d was applied after the write of %d with token %d had been accepted",
					later.Row, later.Value, later.Token, earlier.Value, earlier.Token))
			}
		}
	}
	return errs
}

// checkRejections reports rejected writes that no accepted write explains:
// the fence the error reported must reject the token and must be the token
// of an applied write that started before the rejected one ended.
func checkRejections(cmp Comparison, writes []Write) []error {
	var errs []error
	for _, w := range writes {
		if w.Applied {
			continue
		}
		if cmp.accepts(w.Current, w.Token) {
			errs = append(errs, fmt.Errorf("row %d: write of %d with token %d was rejected, but the reported fence %d accepts it",
				w.Row, w.Value, w.Token, w.Current))
			continue
		}
		if !slices.ContainsFunc(writes, func(a Write) bool { return a.Applied && a.Token == w.Current && a.Start < w.End }) {
			errs = append(errs, fmt.Errorf("row %d: write of %d with token %d was rejected with fence %d, which no earlier accepted write set",
				w.Row, w.Value, w.Token, w.Current))
		}
	}
	return errs
}

// checkFinal reports a final row that is not the accepted write with the
// highest token. When several accepted writes share that token (AtMost), the
// row must hold one of them that no other of them finished before.
func checkFinal(row int, writes []Write, final map[int]Final) []error {
	got, ok := final[row]
	if !ok {
		return []error{fmt.Errorf("row %d: no final state recorded", row)}
	}
	var top []Write
	for _, w := range writes {
		switch {
		case !w.Applied:
		case len(top) == 0 || w.Token > top[0].Token:
			top = []Write{w}
		case w.Token == top[0].Token:
			top = append(top, w)
		}
	}
	if len(top) == 0 {
		return []error{fmt.Errorf("row %d: no write was applied", row)}
	}
	if got.Fence != top[0].Token {
		return []error{fmt.Errorf("row %d: final fence is %d, want %d (the highest accepted token)", row, got.Fence, top[0].Token)}
	}
	for _, w := range top {
		if w.Value == got.Value && !slices.ContainsFunc(top, func(o Write) bool { return w.End < o.Start }) {
			return nil
		}
	}
	return []error{fmt.Errorf("row %d: final value is %d, want the last accepted write with token %d", row, got.Value, top[0].Token)}
}

func rows(history []Write) []int {
	var ids []int
	for _, w := range history {
		if !slices.Contains(ids, w.Row) {
			ids = append(ids, w.Row)
		}
	}
	slices.Sort(ids)
	return ids
}

func forRow(history []Write, row int) []Write {
	var out []Write
	for _, w := range history {
		if w.Row == row {
			out = append(out, w)
		}
	}
	return out
}
