package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/fencelint/fencelint/analyzers"
)

// isTerminal reports whether w is a terminal (a character device), where
// progress can be redrawn in place.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// A progress line on stderr, redrawn a few times a second while a long
// step runs: what is being done, how far along, and the time since start.
// A disabled progress does nothing.
type progress struct {
	w       io.Writer
	enabled bool
	start   time.Time
	mu      sync.Mutex // guards msg, cleared and writes to w
	msg     string
	cleared bool         // the line was cleared for good: draw no more
	done    atomic.Int64 // analysis passes finished
	total   atomic.Int64 // analysis passes to run, or 0
	quit    chan struct{}
	stopped sync.Once
	wg      sync.WaitGroup
}

// startProgress starts redrawing the progress line on w if enabled.
func startProgress(w io.Writer, enabled bool, start time.Time) *progress {
	p := &progress{w: w, enabled: enabled, start: start, quit: make(chan struct{})}
	if !enabled {
		p.stopped.Do(func() {})
		return p
	}
	p.wg.Go(func() {
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.quit:
				p.mu.Lock()
				fmt.Fprint(p.w, "\r\033[K")
				p.cleared = true
				p.mu.Unlock()
				return
			case <-tick.C:
				p.draw()
			}
		}
	})
	return p
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drawLocked()
}

func (p *progress) drawLocked() {
	if p.cleared {
		return
	}
	msg := p.msg
	if total := p.total.Load(); total > 0 {
		msg = fmt.Sprintf("%s: %d%%", msg, 100*p.done.Load()/total)
	}
	fmt.Fprintf(p.w, "\r\033[Kfencelint: %s (%.1fs)", msg, time.Since(p.start).Seconds())
}

// phase sets what the progress line says is being done, and shows it at
// once, so even a run shorter than a tick says what it did.
func (p *progress) phase(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msg = msg
	if p.enabled {
		p.drawLocked()
	}
}

// count returns checks wrapped so that the progress line counts their
// passes over pkgs packages; checks themselves when progress is disabled.
func (p *progress) count(checks []*analysis.Analyzer, pkgs int) []*analysis.Analyzer {
	if !p.enabled {
		return checks
	}
	p.total.Store(int64(len(checks) * pkgs))
	p.phase(fmt.Sprintf("analyzing %d packages", pkgs))
	counted := make([]*analysis.Analyzer, len(checks))
	for i, a := range checks {
		c := *a
		c.Run = func(pass *analysis.Pass) (any, error) {
			defer p.done.Add(1)
			return a.Run(pass)
		}
		counted[i] = &c
	}
	return counted
}

// stop stops redrawing and clears the line. It may be called more than once.
func (p *progress) stop() {
	p.stopped.Do(func() { close(p.quit) })
	p.wg.Wait()
}

// timings records when a run's steps ended, for -v.
type timings struct {
	start, loaded, analyzed time.Time
}

// print writes where the time went: loading, analysis (the sum of each
// analyzer's passes, and the packages that took longest), and output.
func (t *timings) print(w io.Writer, graph *checker.Graph, summary analyzers.Summary, requested, loaded int) {
	end := time.Now()
	fmt.Fprintf(w, "fencelint: %d packages analyzed, %d loaded from source, in %s\n", requested, loaded, round(end.Sub(t.start)))
	fmt.Fprintf(w, "  load (go list, parse, type-check):  %s\n", round(t.loaded.Sub(t.start)))
	fmt.Fprintf(w, "  analysis:                           %s\n", round(t.analyzed.Sub(t.loaded)))
	fmt.Fprintf(w, "    program summary:                  %s, %s\n", round(summary.Elapsed), passes(summary))
	fmt.Fprintf(w, "  output:                             %s\n", round(end.Sub(t.analyzed)))
	byAnalyzer := make(map[string]time.Duration)
	byPackage := make(map[string]time.Duration)
	for act := range graph.All() {
		byAnalyzer[act.Analyzer.Name] += act.Duration
		byPackage[act.Package.ID] += act.Duration
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  analysis CPU time by analyzer (passes run concurrently):")
	for _, name := range sortedByDuration(byAnalyzer) {
		fmt.Fprintf(tw, "    %s\t%s\n", name, round(byAnalyzer[name]))
	}
	fmt.Fprintln(tw, "  slowest packages:")
	for _, id := range sortedByDuration(byPackage)[:min(5, len(byPackage))] {
		fmt.Fprintf(tw, "    %s\t%s\n", id, round(byPackage[id]))
	}
	tw.Flush()
}

// passes says how many summary passes ran and why they stopped: a summary
// that had not settled when the limit stopped it may miss writes reached
// through deeper chains of the program's interfaces.
func passes(s analyzers.Summary) string {
	n := fmt.Sprintf("%d passes", s.Passes)
	if s.Passes == 1 {
		n = "1 pass"
	}
	if s.Settled {
		return n + ", settled"
	}
	return n + ", not settled (the limit): calls through deeper chains of interfaces may be missed"
}

func sortedByDuration(m map[string]time.Duration) []string {
	return slices.SortedFunc(maps.Keys(m), func(a, b string) int { return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b)) })
}

func round(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
