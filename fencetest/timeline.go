package fencetest

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Event is one line of the timeline.
type Event struct {
	At     time.Duration // since the scenario started
	Worker string        // "A" or "B"
	What   string
	Token  int64 // the fencing token involved; 0 if none
	Rows   int64 // rows affected by a write; -1 if not a write
}

// Timeline is a scenario's events in the order they happened.
type Timeline []Event

func (tl Timeline) sort() {
	slices.SortStableFunc(tl, func(a, b Event) int { return cmp.Compare(a.At, b.At) })
}

// String draws the timeline as a table: time, worker, event, token, rows
// affected.
func (tl Timeline) String() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "time\tworker\tevent\ttoken\trows")
	for _, e := range tl {
		fmt.Fprintf(tw, "%7.3fs\t%s\t%s\t%s\t%s\n", e.At.Seconds(), e.Worker, e.What, dash(e.Token, e.Token != 0), dash(e.Rows, e.Rows >= 0))
	}
	tw.Flush()
	return b.String()
}

func dash(n int64, ok bool) string {
	if !ok {
		return "-"
	}
	return strconv.FormatInt(n, 10)
}
