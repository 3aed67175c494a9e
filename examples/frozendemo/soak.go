package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"text/tabwriter"
	"time"
)

// soakStats counts what N rounds of a variant did.
type soakStats struct {
	rounds     int
	accepted   int // stale writes accepted: B's write lost
	rejections int // A's stale write refused by the store
	failures   []error
	minStop    time.Duration
	maxStop    time.Duration
	took       time.Duration
}

func (st *soakStats) add(o outcome, err error) {
	st.rounds++
	if err != nil {
		st.failures = append(st.failures, err)
		return
	}
	if o.res.StaleWriteAccepted {
		st.accepted++
	}
	if o.res.Refused {
		st.rejections++
	}
	if st.minStop == 0 || o.res.Stopped < st.minStop {
		st.minStop = o.res.Stopped
	}
	st.maxStop = max(st.maxStop, o.res.Stopped)
}

// soak runs n rounds of v, parallel at a time, each with A frozen for a
// random time between the TTL and three TTLs.
func soak(ctx context.Context, s *services, v *variant, n, parallel int, ttl time.Duration) *soakStats {
	st := &soakStats{}
	start := time.Now()
	var mu sync.Mutex
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			pause := ttl + rand.N(2*ttl)
			o, err := s.play(ctx, v, round{pause: pause, ttl: ttl})
			mu.Lock()
			st.add(o, err)
			mu.Unlock()
		})
	}
	wg.Wait()
	st.took = time.Since(start)
	return st
}

// soakAll soaks each variant and prints a table; ok says no fenced variant
// accepted a stale write and no round failed.
func soakAll(ctx context.Context, s *services, cfg config, out io.Writer) (bool, error) {
	fmt.Fprintf(out, "soak: %d rounds per variant, %d at a time, A frozen for a random %v to %v (and until B has written)\n\n",
		cfg.soak, cfg.parallel, cfg.ttl, 3*cfg.ttl)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "variant\twrite\trounds\tstale writes accepted\trejections\tfailed rounds\tA frozen\ttook")
	ok := true
	var failures []string
	for _, v := range cfg.variants {
		st := soak(ctx, s, v, cfg.soak, cfg.parallel, cfg.ttl)
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%v-%v\t%v\n", v.name, v.guard, st.rounds, st.accepted,
			st.rejections, len(st.failures), st.minStop.Round(10*time.Millisecond), st.maxStop.Round(10*time.Millisecond),
			st.took.Round(time.Second))
		if (v.fenced && st.accepted > 0) || len(st.failures) > 0 {
			ok = false
		}
		for i, err := range st.failures {
			if i == 3 {
				failures = append(failures, fmt.Sprintf("%s: ... %d more failed rounds", v.name, len(st.failures)-3))
				break
			}
			failures = append(failures, fmt.Sprintf("%s: %v", v.name, err))
		}
	}
	if err := tw.Flush(); err != nil {
		return false, err
	}
	for _, f := range failures {
		fmt.Fprintln(out, "failed round:", f)
	}
	return ok, ctx.Err()
}
