package fencecheck_test

import (
	"strings"
	"testing"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/fencecheck"
)

// w builds a write on row 1; applied writes report no fence.
func w(token, value int64, applied bool, current, start, end int64) fencecheck.Write {
	return fencecheck.Write{Row: 1, Token: token, Value: value, Applied: applied, Current: current, Start: start, End: end}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name    string
		cmp     fencecheck.Comparison
		history []fencecheck.Write
		final   fencecheck.Final
		wantErr string // empty: the history is consistent
	}{
		{
			name:    "sequential increasing tokens",
			history: []fencecheck.Write{w(1, 10, true, 0, 1, 2), w(2, 20, true, 0, 3, 4)},
			final:   fencecheck.Final{Fence: 2, Value: 20},
		},
		{
			name:    "stale write rejected with the newer fence",
			history: []fencecheck.Write{w(5, 10, true, 0, 1, 2), w(3, 20, false, 5, 3, 4)},
			final:   fencecheck.Final{Fence: 5, Value: 10},
		},
		{
			name:    "stale write applied after a newer one finished",
			history: []fencecheck.Write{w(5, 10, true, 0, 1, 2), w(3, 20, true, 0, 3, 4)},
			final:   fencecheck.Final{Fence: 3, Value: 20},
			wantErr: "write of 20 with token 3 was applied after the write of 10 with token 5",
		},
		{
			name:    "overlapping writes may apply in either order",
			history: []fencecheck.Write{w(5, 10, true, 0, 1, 4), w(3, 20, true, 0, 2, 3)},
			final:   fencecheck.Final{Fence: 5, Value: 10},
		},
		{
			name:    "equal token applies twice under AtMost",
			history: []fencecheck.Write{w(4, 10, true, 0, 1, 2), w(4, 20, true, 0, 3, 4)},
			final:   fencecheck.Final{Fence: 4, Value: 20},
		},
		{
			name:    "equal token applied twice under Below",
			cmp:     fencecheck.Below,
			history: []fencecheck.Write{w(4, 10, true, 0, 1, 2), w(4, 20, true, 0, 3, 4)},
			final:   fencecheck.Final{Fence: 4, Value: 20},
			wantErr: "write of 20 with token 4 was applied after",
		},
		{
			name:    "final value of an earlier write with the top token",
			history: []fencecheck.Write{w(4, 10, true, 0, 1, 2), w(4, 20, true, 0, 3, 4)},
			final:   fencecheck.Final{Fence: 4, Value: 10},
			wantErr: "final value is 10",
		},
		{
			name:    "final row lost the highest accepted write",
			history: []fencecheck.Write{w(2, 10, true, 0, 1, 4), w(7, 20, true, 0, 2, 3)},
			final:   fencecheck.Final{Fence: 2, Value: 10},
			wantErr: "final fence is 2, want 7",
		},
		{
			name:    "rejection with no newer accepted write",
			history: []fencecheck.Write{w(2, 10, true, 0, 1, 2), w(3, 20, false, 9, 3, 4)},
			final:   fencecheck.Final{Fence: 2, Value: 10},
			wantErr: "rejected with fence 9, which no earlier accepted write set",
		},
		{
			name:    "rejection whose reported fence accepts the token",
			history: []fencecheck.Write{w(2, 10, true, 0, 1, 2), w(3, 20, false, 2, 3, 4)},
			final:   fencecheck.Final{Fence: 2, Value: 10},
			wantErr: "the reported fence 2 accepts it",
		},
		{
			name:    "nothing applied",
			history: []fencecheck.Write{w(2, 10, false, 0, 1, 2)},
			final:   fencecheck.Final{},
			wantErr: "no write was applied",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := fencecheck.Check(tt.cmp, tt.history, map[int]fencecheck.Final{1: tt.final})
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Check: unexpected error: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Errorf("Check accepted a bad history, want error containing %q", tt.wantErr)
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Errorf("Check error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestCheckMissingFinalRow(t *testing.T) {
	err := fencecheck.Check(fencecheck.AtMost, []fencecheck.Write{w(1, 10, true, 0, 1, 2)}, nil)
	if err == nil || !strings.Contains(err.Error(), "no final state") {
		t.Errorf("Check with no final state = %v, want an error", err)
	}
}
