// Command fencegen generates fenced write queries and typed Go wrappers
// from SQL schemas: every write takes a fencing token and reports a stale
// one as an error instead of silently losing the race.
//
// Usage:
//
//	fencegen -engine postgresql -schema schema.sql -out db -package db
//
// or, in a Go package:
//
//	//go:generate fencegen -engine postgresql -schema ../schema.sql -out . -package db
//
// See fencegen -h for every flag and docs/fencegen.md for the generated API.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/fencelint/fencelint/gen"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == pluginMethod {
		os.Exit(runPlugin(os.Stdin, os.Stdout, os.Stderr)) // run by sqlc generate
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit code (0 done,
// 1 bad input or failed write, 2 bad usage).
func run(args []string, stdout, stderr io.Writer) int {
	fl, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "fencegen:", err)
		return 2
	}
	if fl.printVersion {
		fmt.Fprintln(stdout, "fencegen", version())
		return 0
	}
	jobs, err := fl.jobs()
	if err != nil {
		report(stderr, err)
		return 1
	}
	for _, j := range jobs {
		res, err := gen.Generate(j.opts)
		if err != nil {
			report(stderr, err)
			return 1
		}
		for _, w := range res.Warnings {
			fmt.Fprintf(stderr, "%s: warning: %s\n", w.Pos, w.Message)
		}
		if err := writeOutput(j.out, res.Files); err != nil {
			report(stderr, err)
			return 1
		}
	}
	return 0
}

// report prints an error: positioned diagnostics as they are, anything else
// prefixed with the program name.
func report(w io.Writer, err error) {
	var gerr *gen.Error
	if errors.As(err, &gerr) {
		fmt.Fprintln(w, gerr.Error())
		return
	}
	fmt.Fprintln(w, "fencegen:", err)
}
