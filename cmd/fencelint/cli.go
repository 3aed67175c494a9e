package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"

	"golang.org/x/tools/go/analysis"
)

// Exit codes of the commands fencelint handles itself; multichecker
// handles the rest (see the package comment).
const (
	exitOK    = 0
	exitUsage = 2
)

// explainCommand runs "fencelint -explain NAME" if args asks for it: it
// writes the full documentation of the check named NAME to stdout. It
// reports whether args was an -explain command, and the exit code. It is
// handled before multichecker parses flags so that -explain is not passed
// on to go vet as an analysis flag.
func explainCommand(args []string, checks []*analysis.Analyzer, stdout, stderr io.Writer) (code int, handled bool) {
	name, ok, err := parseExplain(args)
	if !ok {
		return 0, false
	}
	if err == nil {
		err = explain(stdout, checks, name)
	}
	if err != nil {
		fmt.Fprintf(stderr, "fencelint: %v\n", err)
		return exitUsage, true
	}
	return exitOK, true
}

// helpCommand runs "fencelint help" (the short usage, on stdout) and
// "fencelint help NAME" (the check's documentation and flags) if args asks
// for it, and reports whether it did, and the exit code.
func helpCommand(args []string, checks []*analysis.Analyzer, stdout, stderr io.Writer) (code int, handled bool) {
	if len(args) == 0 || args[0] != "help" {
		return 0, false
	}
	switch len(args) {
	case 1:
		usage(stdout, checks)
		return exitOK, true
	case 2:
		if err := explain(stdout, checks, args[1]); err != nil {
			fmt.Fprintf(stderr, "fencelint: %v\n", err)
			return exitUsage, true
		}
		i := slices.IndexFunc(checks, func(a *analysis.Analyzer) bool { return a.Name == args[1] })
		fmt.Fprintf(stdout, "\nFlags:\n  -%s\trun only this check (with other -NAME flags: only those)\n  -%s=false\trun every check but this one\n", args[1], args[1])
		checks[i].Flags.VisitAll(func(f *flag.Flag) { fmt.Fprintf(stdout, "  -%s.%s\t%s\n", args[1], f.Name, f.Usage) })
		return exitOK, true
	}
	fmt.Fprintf(stderr, "fencelint: help takes at most one check name, got %q\n", args[1:])
	return exitUsage, true
}

// versionCommand prints fencelint's version for "fencelint -version".
func versionCommand(args []string, stdout io.Writer) (code int, handled bool) {
	if len(args) != 1 || args[0] != "-version" && args[0] != "--version" {
		return 0, false
	}
	fmt.Fprintf(stdout, "fencelint %s (%s)\n", version(), runtime.Version())
	return exitOK, true
}

// version is the version of the fencelint module the binary was built
// from: a release tag (go install ...@v0.1.0), a pseudo-version, or
// "(devel)" from a clone, with the commit when the build recorded it.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}

// parseExplain reports whether args is an -explain command (-explain NAME,
// -explain=NAME, with one or two dashes) and returns NAME. The command must
// come first and stand alone; err says what is wrong with it otherwise.
func parseExplain(args []string) (name string, ok bool, err error) {
	if len(args) == 0 {
		return "", false, nil
	}
	flagName, value, hasValue := strings.Cut(strings.TrimLeft(args[0], "-"), "=")
	if !strings.HasPrefix(args[0], "-") || flagName != "explain" {
		return "", false, nil
	}
	rest := args[1:]
	if !hasValue {
		if len(rest) == 0 {
			return "", true, fmt.Errorf("-explain needs the name of a check: fencelint -explain NAME")
		}
		value, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 {
		return "", true, fmt.Errorf("-explain takes one check name, got extra arguments %q", rest)
	}
	return value, true, nil
}

// explain writes the full documentation of the check named name to w. For
// an unknown name the error lists the known ones.
func explain(w io.Writer, checks []*analysis.Analyzer, name string) error {
	i := slices.IndexFunc(checks, func(a *analysis.Analyzer) bool { return a.Name == name })
	if i < 0 {
		return fmt.Errorf("unknown check %q; the checks are: %s", name, strings.Join(checkNames(checks), ", "))
	}
	a := checks[i]
	fmt.Fprintln(w, strings.TrimSpace(a.Doc))
	if a.URL != "" {
		fmt.Fprintf(w, "\nSee %s\n", a.URL)
	}
	return nil
}

// checkNames returns the names of checks, in order.
func checkNames(checks []*analysis.Analyzer) []string {
	names := make([]string, len(checks))
	for i, a := range checks {
		names[i] = a.Name
	}
	return names
}

// usage writes the short help: how to run fencelint, the checks with their
// one-line summaries, and where the rest is documented. The full flag list
// (every check's flags) is long, so it stays behind "fencelint help".
func usage(w io.Writer, checks []*analysis.Analyzer) {
	fmt.Fprint(w, `fencelint finds writes made under a distributed lock or lease that the
store cannot reject from a stale holder (a holder paused past its lease).

Usage:
  fencelint [flags] packages...                      analyze packages (./...)
  go vet -vettool=$(command -v fencelint) packages   run as a go vet tool
  fencelint -explain NAME                            a check's full documentation
  fencelint help [NAME]                              this help, or a check's doc and flags
  fencelint -version                                 the version

Checks (-NAME runs only the named checks, -NAME=false all but those):
`)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, a := range checks {
		fmt.Fprintf(tw, "  %s\t%s\n", a.Name, summary(a))
	}
	tw.Flush()
	fmt.Fprint(w, `
Flags:
  -format=F    text (default, on stderr), json or sarif (SARIF 2.1.0 on stdout);
               with json or sarif the exit code is 0 even with findings
  -json        same as -format=json
  -c=N         show N lines of context around each finding
  -fix         apply the suggested fixes, then print the findings that remain
  -diff        print the suggested fixes as a unified diff; change nothing
  -test=false  skip test files
  -schema=PATH,...
               also read the unique keys of these SQL files or directories
               (a schema the code does not embed); a named file must read
               cleanly
  -findschema=false
               do not search the main modules (and the git checkout they
               sit in) for *.sql files the code does not embed
  -v           print where the time went (and how many program summary
               passes ran), and the schema files read
  -cpuprofile=FILE, -memprofile=FILE
               write a CPU profile of the run, or a heap profile taken when
               the analysis is done (its results still held)

Environment: GOGC defaults to 50 for this run (a lower memory peak); set
GOGC=100 or higher to trade memory for fewer collections.

Exit codes: 0 no findings, 1 load or analysis error or no package matched,
2 bad command line, 3 findings (with -fix: findings remain).
`)
}

// summary returns a's one-line summary: the first line of its Doc without
// the "NAME: " prefix go/analysis docs start with.
func summary(a *analysis.Analyzer) string {
	first, _, _ := strings.Cut(strings.TrimSpace(a.Doc), "\n")
	return strings.TrimPrefix(first, a.Name+": ")
}
