package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/fencelint/fencelint/fencetest"
)

// config is what the command line says.
type config struct {
	variants []*variant
	ttl      time.Duration
	pause    time.Duration
	soak     int
	parallel int
}

func main() {
	fencetest.ServeWorker() // a worker process runs its worker and exits here
	log.SetFlags(0)
	log.SetPrefix("frozendemo: ")
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ok, err := run(ctx, cfg, os.Stdout)
	if err != nil {
		log.Fatal(err)
	}
	if !ok {
		os.Exit(1)
	}
}

func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("frozendemo", flag.ContinueOnError)
	var names string
	cfg := config{}
	fs.StringVar(&names, "variant", "all", "comma-separated variants to run, or all")
	fs.DurationVar(&cfg.ttl, "ttl", time.Second, "lease TTL (etcd: whole seconds, at least 1s)")
	fs.DurationVar(&cfg.pause, "pause", 2*time.Second, "how long worker A stays frozen at least (without -soak)")
	fs.IntVar(&cfg.soak, "soak", 0, "run this many rounds per variant with random pauses between the TTL and 3 TTLs, and report the counts")
	fs.IntVar(&cfg.parallel, "parallel", 8, "rounds run at once in -soak (each has its own lock and row)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: frozendemo [flags]\n\n"+
			"Starts etcd, redis-server and PostgreSQL, then runs two workers as processes per variant: A takes the\n"+
			"lease and is frozen with SIGSTOP past its TTL, B takes the lease and writes, A is resumed and writes.\n\n"+
			"variants: %s\n\n", strings.Join(variantNames(allVariants()), ", "))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if names == "all" {
		cfg.variants = allVariants()
	} else {
		for name := range strings.SplitSeq(names, ",") {
			v, err := variantNamed(strings.TrimSpace(name))
			if err != nil {
				return config{}, err
			}
			cfg.variants = append(cfg.variants, v)
		}
	}
	if cfg.ttl < time.Second && usesEtcd(cfg.variants) {
		return config{}, fmt.Errorf("-ttl=%v: etcd leases last whole seconds; use at least 1s", cfg.ttl)
	}
	if cfg.pause <= cfg.ttl {
		return config{}, fmt.Errorf("-pause=%v must be longer than -ttl=%v, or there is no frozen worker", cfg.pause, cfg.ttl)
	}
	if cfg.soak < 0 || cfg.parallel < 1 {
		return config{}, errors.New("-soak must be at least 0 and -parallel at least 1")
	}
	return cfg, nil
}

func usesEtcd(vs []*variant) bool {
	for _, v := range vs {
		if v.service == "etcd" {
			return true
		}
	}
	return false
}

func variantNames(vs []*variant) []string {
	var names []string
	for _, v := range vs {
		names = append(names, v.name)
	}
	return names
}

// run starts the services and plays the variants (or soaks them). ok says
// every variant behaved as its design predicts.
func run(ctx context.Context, cfg config, out io.Writer) (ok bool, err error) {
	s, err := startServices(ctx)
	if err != nil {
		return false, err
	}
	defer s.stop()
	fmt.Fprintf(out, "etcd %s, redis-server %s, PostgreSQL in %s; lease TTL %v\n",
		s.etcdURL, s.redisAddr, s.dir, cfg.ttl)
	if cfg.soak > 0 {
		return soakAll(ctx, s, cfg, out)
	}
	return demo(ctx, s, cfg, out)
}

// demo plays each variant once and prints its timeline and final row.
func demo(ctx context.Context, s *services, cfg config, out io.Writer) (bool, error) {
	type line struct {
		v    *variant
		lost bool
	}
	var summary []line
	ok := true
	for _, v := range cfg.variants {
		fmt.Fprintf(out, "\n== %s: %s\n", v.name, v.title)
		o, err := s.play(ctx, v, round{pause: cfg.pause, ttl: cfg.ttl})
		if o.res != nil {
			fmt.Fprint(out, o.res.Timeline)
		}
		if err != nil {
			return false, fmt.Errorf("%s: %w", v.name, err)
		}
		fmt.Fprintf(out, "final row: %v\n", o.final)
		if o.lostB() {
			fmt.Fprintf(out, "B's write is LOST: A, frozen for %v after taking the lease, overwrote it.\n",
				o.res.Stopped.Round(time.Millisecond))
		} else {
			fmt.Fprintf(out, "B's write survived: the store refused A (%v).\n", o.res.AErr)
		}
		if o.lostB() == v.fenced {
			ok = false
			fmt.Fprintf(out, "UNEXPECTED: a %s variant should %s B's write\n", fencedWord(v.fenced), map[bool]string{true: "keep", false: "lose"}[v.fenced])
		}
		summary = append(summary, line{v, o.lostB()})
	}
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "variant\tlock service\twrite\tB's write")
	for _, l := range summary {
		fate := "kept"
		if l.lost {
			fate = "LOST"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", l.v.name, l.v.service, l.v.guard, fate)
	}
	return ok, tw.Flush()
}

func fencedWord(fenced bool) string {
	if fenced {
		return "fenced"
	}
	return "unfenced"
}
