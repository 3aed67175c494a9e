package fencecheck_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/fencecheck"
)

// memStore is an in-memory row store. With checkThenWrite it compares the
// fence and writes in two critical sections, the read-compare-write race a
// fence exists to prevent.
type memStore struct {
	mu             sync.Mutex
	rows           map[int]fencecheck.Final
	checkThenWrite bool
}

func (s *memStore) write(_ context.Context, row int, token, value int64) (fencecheck.Outcome, error) {
	s.mu.Lock()
	current := s.rows[row].Fence
	if current > token {
		s.mu.Unlock()
		return fencecheck.Outcome{Current: current}, nil
	}
	if s.checkThenWrite {
		s.mu.Unlock()
		time.Sleep(50 * time.Microsecond) // another writer may pass the check meanwhile
		s.mu.Lock()
	}
	s.rows[row] = fencecheck.Final{Fence: token, Value: value}
	s.mu.Unlock()
	return fencecheck.Outcome{Applied: true}, nil
}

// TestHammerAndCheck runs the contention driver against a correct store
// and a racy one: the checker must pass the first and catch the second.
func TestHammerAndCheck(t *testing.T) {
	load := fencecheck.Load{Workers: 8, Rows: 2, LeasesPerWorker: 50, WritesPerLease: 2,
		MaxDelay: 100 * time.Microsecond, Timeout: 10 * time.Second, Seed: 7}
	for _, racy := range []bool{false, true} {
		store := &memStore{rows: map[int]fencecheck.Final{}, checkThenWrite: racy}
		history, err := fencecheck.Hammer(context.Background(), load, fencecheck.Counter(), store.write)
		if err != nil {
			t.Fatal(err)
		}
		if want := load.Workers * load.LeasesPerWorker * load.WritesPerLease; len(history) != want {
			t.Errorf("racy=%v: history has %d writes, want %d", racy, len(history), want)
		}
		err = fencecheck.Check(fencecheck.AtMost, history, store.rows)
		if racy && err == nil {
			t.Error("Check passed a check-then-write store")
		}
		if !racy && err != nil {
			t.Errorf("Check failed a correct store: %v", err)
		}
	}
}
