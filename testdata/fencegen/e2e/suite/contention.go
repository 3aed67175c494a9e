package suite

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/fencecheck"
)

// DefaultLoad is sized for two cores and loopback: about two thousand
// writes, well under a second on an idle machine, cut short by a timeout on
// a busy one.
func DefaultLoad() fencecheck.Load {
	return fencecheck.Load{
		Workers:         16,
		Rows:            4,
		LeasesPerWorker: 40,
		WritesPerLease:  3,
		MaxDelay:        200 * time.Microsecond,
		Timeout:         20 * time.Second,
		Seed:            1,
	}
}

// RunContention hammers table with load and tokens, alternating the
// generated update and upsert, then checks the recorded history and the
// final rows with fencecheck. Each row is first seeded with token 0, which
// is recorded as the first accepted write.
func RunContention(t *testing.T, s Store, table Table, load fencecheck.Load, tokens fencecheck.TokenFunc) {
	ctx := context.Background()
	history := seedRows(t, ctx, table, load.Rows)
	write := func(ctx context.Context, row int, token, value int64) (fencecheck.Outcome, error) {
		op := table.Update
		if value%2 == 1 {
			op = table.Upsert
		}
		return outcome(s, op(ctx, token, int64(row), value))
	}
	recorded, err := fencecheck.Hammer(ctx, load, tokens, write)
	if err != nil {
		t.Fatal(err)
	}
	history = append(history, recorded...)
	final := readFinal(t, ctx, table, load.Rows)
	if err := fencecheck.Check(s.Cmp, history, final); err != nil {
		t.Fatalf("fence violated in a history of %d writes:\n%s", len(history), firstLines(err.Error(), 20))
	}
	logSummary(t, history)
}

// outcome turns a generated method's error into a fencecheck outcome; any
// error other than the package's stale error is returned as is.
func outcome(s Store, err error) (fencecheck.Outcome, error) {
	if err == nil {
		return fencecheck.Outcome{Applied: true}, nil
	}
	v := s.Classify(err)
	if !v.IsStale || !v.AsStale {
		return fencecheck.Outcome{}, err
	}
	if v.Current == nil {
		return fencecheck.Outcome{}, fmt.Errorf("stale error without the current fence: %w", err)
	}
	return fencecheck.Outcome{Current: *v.Current}, nil
}

func seedRows(t *testing.T, ctx context.Context, table Table, rows int) []fencecheck.Write {
	t.Helper()
	var seeds []fencecheck.Write
	for row := 1; row <= rows; row++ {
		value := -int64(row) // hammered values are positive
		if err := table.Upsert(ctx, 0, int64(row), value); err != nil {
			t.Fatalf("seed row %d: %v", row, err)
		}
		seeds = append(seeds, fencecheck.Write{Row: row, Token: 0, Value: value, Applied: true, Start: -1, End: 0})
	}
	return seeds
}

func readFinal(t *testing.T, ctx context.Context, table Table, rows int) map[int]fencecheck.Final {
	t.Helper()
	final := make(map[int]fencecheck.Final)
	for row := 1; row <= rows; row++ {
		found, value, fence, err := table.Read(ctx, int64(row))
		if err != nil {
			t.Fatalf("read row %d: %v", row, err)
		}
		if !found || fence == nil {
			t.Fatalf("row %d: missing or unfenced after the run", row)
		}
		final[row] = fencecheck.Final{Fence: *fence, Value: value}
	}
	return final
}

// logSummary records how much contention the run produced, so a run where
// nothing was ever rejected (and the fence thus never tested) is visible.
func logSummary(t *testing.T, history []fencecheck.Write) {
	var applied, rejected int
	for _, w := range history {
		if w.Applied {
			applied++
		} else {
			rejected++
		}
	}
	t.Logf("%d writes: %d applied, %d rejected as stale", len(history), applied, rejected)
	if rejected == 0 {
		t.Error("no write was rejected: the load did not exercise the fence")
	}
}

// firstLines keeps a long violation report readable.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines[n] = "..."
	}
	return strings.Join(lines, "\n")
}
