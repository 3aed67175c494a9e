package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzers"
	"github.com/fencelint/fencelint/analyzers/unfencedwrite"
)

// fencelintBin is the fencelint binary TestMain builds for these tests.
var fencelintBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fencelint-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fencelintBin = filepath.Join(dir, "fencelint")
	out, err := exec.Command("go", "build", "-o", fencelintBin, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building fencelint: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one run of a command printed and its exit code.
type result struct {
	stdout, stderr string
	code           int
}

// run runs name with args in dir and returns what it printed.
func run(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running %s %q: %v", name, args, err)
	}
	return result{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
}

// moduleRoot is the fencelint module's root, relative to this package.
const moduleRoot = "../.."

func TestCommandLine(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string // exact, if not empty
		wantStdout []string
		wantStderr []string
	}{
		{
			name:   "explain prints the doc",
			args:   []string{"-explain", "unfencedwrite"},
			stdout: unfencedwrite.Analyzer.Doc + "\n\nSee " + unfencedwrite.Analyzer.URL + "\n",
		},
		{
			name:   "explain with =",
			args:   []string{"-explain=unfencedwrite"},
			stdout: unfencedwrite.Analyzer.Doc + "\n\nSee " + unfencedwrite.Analyzer.URL + "\n",
		},
		{
			name:       "explain an unknown check lists the checks",
			args:       []string{"-explain", "fencedwrite"},
			code:       2,
			wantStderr: append([]string{`unknown check "fencedwrite"`}, checkNames()...),
		},
		{
			name:       "explain without a name",
			args:       []string{"-explain"},
			code:       2,
			wantStderr: []string{"-explain needs the name of a check"},
		},
		{
			name:       "help lists the checks with summaries",
			args:       []string{"-help"},
			wantStderr: append([]string{"fencelint -explain NAME", "report store writes made while a lease is held"}, checkNames()...),
		},
		{
			name:       "help is fencelint's",
			args:       []string{"help"},
			wantStdout: append([]string{"fencelint -explain NAME", "-format=F", "Exit codes"}, checkNames()...),
		},
		{
			name:       "help NAME is the check's doc and flags",
			args:       []string{"help", "unfencedwrite"},
			wantStdout: []string{"unfencedwrite: report store writes made while a lease is held", "The only safe", "-unfencedwrite=false"},
		},
		{
			name:       "no arguments: short usage",
			args:       nil,
			code:       2,
			wantStderr: []string{"no packages to analyze", "Usage:"},
		},
		{
			name:       "version",
			args:       []string{"-version"},
			wantStdout: []string{"fencelint (devel)", "go1."},
		},
		{
			name:       "a pattern that matches no packages",
			args:       []string{"./examples/nosuch..."},
			code:       1,
			wantStderr: []string{`fencelint: warning: "./examples/nosuch..." matched no packages`},
		},
		{
			name:       "paths relative to the current directory",
			args:       []string{"./examples/frozenworker"},
			code:       3,
			wantStderr: []string{"\nexamples/frozenworker/advisory.go:"},
		},
		{
			name:       "unknown flag",
			args:       []string{"-frobnicate", "./..."},
			code:       2,
			wantStderr: []string{"flag provided but not defined: -frobnicate", "Checks ("},
		},
		{
			name:       "findings exit 3",
			args:       []string{"./examples/frozenworker"},
			code:       3,
			wantStderr: []string{"advisory.go:", "without a fencing token"},
		},
		{
			name:       "-fix prints the findings it cannot fix and exits 3",
			args:       []string{"-fix", "./examples/frozenworker"},
			code:       3,
			wantStderr: []string{"\nexamples/frozenworker/advisory.go:", "without a fencing token"},
		},
		{
			name:       "-diff alone previews, and prints the findings",
			args:       []string{"-diff", "./examples/frozenworker"},
			code:       3,
			wantStderr: []string{"\nexamples/frozenworker/advisory.go:", "without a fencing token"},
		},
		{
			name: "a disabled check reports nothing",
			args: []string{"-unfencedwrite=false", "./examples/frozenworker"},
		},
		{
			name:       "a package that does not exist",
			args:       []string{"./examples/nosuchdir"},
			code:       1,
			wantStderr: []string{"nosuchdir"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, moduleRoot, fencelintBin, tt.args...)
			got.stderr = "\n" + got.stderr // so that a want can anchor at a line's start
			if got.code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", got.code, tt.code, got.stdout, got.stderr)
			}
			if tt.stdout != "" && got.stdout != tt.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", got.stdout, tt.stdout)
			}
			checkContains(t, "stdout", got.stdout, tt.wantStdout)
			checkContains(t, "stderr", got.stderr, tt.wantStderr)
		})
	}
}

// checkNames returns the names of fencelint's checks.
func checkNames() []string {
	var names []string
	for _, a := range analyzers.All() {
		names = append(names, a.Name)
	}
	return names
}

// checkContains reports each of wants that text lacks.
func checkContains(t *testing.T, what, text string, wants []string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}

// testModule is a small module with unfenced writes under a PostgreSQL
// session advisory lock: one in vetme, and one in worker through a helper
// in another package, store, that does the write. report uses vetme and
// has no finding of its own.
var testModule = map[string]string{
	"go.mod": "module example.com/vetme\n\ngo 1.26\n",
	"vetme.go": `package vetme

import (
	"context"
	"database/sql"
)

func Recompute(ctx context.Context, db *sql.DB, conn *sql.Conn, id, total int64) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", id); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", id)
	_, err := db.ExecContext(ctx, "UPDATE totals SET total = $1 WHERE id = $2", total, id) // line 13
	return err
}
`,
	"store/store.go": `package store

import (
	"context"
	"database/sql"
)

// SaveTotal writes, with no fence: a call to it under a lease is reported.
func SaveTotal(ctx context.Context, db *sql.DB, id, total int64) error {
	_, err := db.ExecContext(ctx, "UPDATE totals SET total = $1 WHERE id = $2", total, id)
	return err
}
`,
	"report/report.go": `package report

import "example.com/vetme"

// Recompute is vetme's.
var Recompute = vetme.Recompute
`,
	"worker/worker.go": `package worker

import (
	"context"
	"database/sql"

	"example.com/vetme/store"
)

func Recompute(ctx context.Context, db *sql.DB, conn *sql.Conn, id, total int64) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", id); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", id)
	return store.SaveTotal(ctx, db, id, total) // line 15
}
`,
	"svc/svc.go": `package svc

import (
	"context"
	"database/sql"
)

// Totals is implemented in pgtotals, which svc does not import.
type Totals interface {
	Save(ctx context.Context, id, total int64) error
}

func Recompute(ctx context.Context, conn *sql.Conn, totals Totals, id, total int64) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", id); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", id)
	return totals.Save(ctx, id, total) // line 18
}
`,
	"pgtotals/pgtotals.go": `package pgtotals

import (
	"context"
	"database/sql"
)

type Store struct{ DB *sql.DB }

func (s *Store) Save(ctx context.Context, id, total int64) error {
	_, err := s.DB.ExecContext(ctx, "UPDATE totals SET total = $1 WHERE id = $2", total, id)
	return err
}
`,
}

// The findings expected in testModule.
var (
	vetmeFinding  = finding{Analyzer: "unfencedwrite", File: "vetme.go", Line: 13}
	workerFinding = finding{Analyzer: "unfencedwrite", File: "worker.go", Line: 15}
	// svc calls pgtotals' Save through its own interface: a standalone run
	// sees every implementation in the module, go vet does not.
	svcFinding = finding{Analyzer: "unfencedwrite", File: "svc.go", Line: 18}
)

// writeModule writes testModule into a new temp dir.
func writeModule(t *testing.T) string {
	t.Helper()
	return writeFiles(t, t.TempDir(), testModule)
}

// writeFiles writes files (slash-separated paths under dir, and their
// text) into dir, and returns dir.
func writeFiles(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for name, text := range files {
		file := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestGoVetVettool(t *testing.T) {
	dir := writeModule(t)
	got := run(t, dir, "go", "vet", "-vettool="+fencelintBin, "./...")
	if got.code != 1 {
		t.Errorf("go vet exit code %d, want 1 (findings)\nstderr:\n%s", got.code, got.stderr)
	}
	checkContains(t, "go vet's stderr", got.stderr, []string{
		"vetme.go:13:", "worker.go:15:", "without a fencing token", "pg_advisory_lock", "store.SaveTotal"})
}

// TestProfiles checks that -cpuprofile and -memprofile profile fencelint's
// own standalone run (which alone knows -v), not multichecker's, and write
// gzipped profiles as pprof reads them.
func TestProfiles(t *testing.T) {
	dir := writeModule(t)
	cpu, mem := filepath.Join(t.TempDir(), "cpu.pprof"), filepath.Join(t.TempDir(), "mem.pprof")
	got := run(t, dir, fencelintBin, "-v", "-cpuprofile="+cpu, "-memprofile="+mem, "./...")
	if got.code != 3 {
		t.Errorf("exit code %d, want 3 (findings)\nstderr:\n%s", got.code, got.stderr)
	}
	checkContains(t, "stderr", got.stderr, []string{"packages analyzed", "without a fencing token"})
	for _, file := range []string{cpu, mem} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Error(err)
			continue
		}
		if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			t.Errorf("%s is not a gzipped profile: it starts %q", filepath.Base(file), data[:min(len(data), 8)])
		}
	}
}

// TestJSON checks -json output, and that facts flow between the packages
// of the analyzed module whether or not they are named on the command line:
// worker's call to store.SaveTotal is reported with ./worker alone.
func TestJSON(t *testing.T) {
	tests := []struct {
		pattern string
		want    []finding
	}{
		{"./...", []finding{svcFinding, vetmeFinding, workerFinding}},
		{"./worker", []finding{workerFinding}},
		{"./svc", []finding{svcFinding}},
		{"./store", nil},
		{"./report", nil},
	}
	dir := writeModule(t)
	for _, tt := range tests {
		got := run(t, dir, fencelintBin, "-json", tt.pattern)
		if got.code != 0 {
			t.Errorf("%s: exit code %d, want 0 with -json\nstderr:\n%s", tt.pattern, got.code, got.stderr)
		}
		findings, err := parseJSON(got.stdout)
		if err != nil {
			t.Fatalf("%s: -json output: %v\n%s", tt.pattern, err, got.stdout)
		}
		var keys []finding
		for _, f := range findings {
			keys = append(keys, f.key())
		}
		slices.SortFunc(keys, func(a, b finding) int { return strings.Compare(a.File, b.File) })
		if !slices.Equal(keys, tt.want) {
			t.Errorf("fencelint -json %s: findings %v, want %v", tt.pattern, findings, tt.want)
		}
	}
}

// TestOnlyNamedPackagesReport checks that the packages fencelint loads from
// source only for their facts (vetme, for report) report nothing: no
// output and exit code 0.
func TestOnlyNamedPackagesReport(t *testing.T) {
	got := run(t, writeModule(t), fencelintBin, "./report")
	if got.code != 0 || got.stderr != "" || got.stdout != "" {
		t.Errorf("fencelint ./report: exit code %d, stdout %q, stderr %q; want 0 and no output", got.code, got.stdout, got.stderr)
	}
}

// TestFrozenWorkerExample checks the README's example: fencelint reports the
// advisory-lock worker's UPDATE and nothing in the fenced lease worker.
func TestFrozenWorkerExample(t *testing.T) {
	example := filepath.Join(moduleRoot, "examples", "frozenworker")
	unfencedLine := lineOf(t, filepath.Join(example, "advisory.go"), "ExecContext(ctx, \"UPDATE balances")
	got := run(t, moduleRoot, fencelintBin, "-json", "./examples/frozenworker")
	findings, err := parseJSON(got.stdout)
	if err != nil || got.code != 0 {
		t.Fatalf("fencelint -json: exit %d, %v\nstdout:\n%s\nstderr:\n%s", got.code, err, got.stdout, got.stderr)
	}
	want := finding{Analyzer: "unfencedwrite", File: "advisory.go", Line: unfencedLine}
	var found bool
	for _, f := range findings {
		switch {
		case f.key() == want:
			found = true
		case f.File == "lease.go":
			t.Errorf("finding in the fenced worker: %s", f)
		}
	}
	if !found {
		t.Errorf("no unfencedwrite finding at advisory.go:%d; findings: %v", unfencedLine, findings)
	}
}

// lineOf returns the line number of the only line of file containing s.
func lineOf(t *testing.T, file, s string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, text := range strings.Split(string(data), "\n") {
		if strings.Contains(text, s) {
			if line != 0 {
				t.Fatalf("%s: %q on lines %d and %d", file, s, line, i+1)
			}
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatalf("%s: no line contains %q", file, s)
	}
	return line
}

// A finding is one diagnostic from fencelint -json.
type finding struct {
	Analyzer string
	File     string // base name
	Line     int
	Message  string
}

// key is f without its message, for comparisons.
func (f finding) key() finding { f.Message = ""; return f }

func (f finding) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", f.File, f.Line, f.Analyzer, f.Message)
}

// parseJSON decodes the output of -json: package, then analyzer, then
// either a list of diagnostics or an error. An analysis error is an error.
func parseJSON(out string) ([]finding, error) {
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		return nil, err
	}
	var findings []finding
	for pkg, byAnalyzer := range tree {
		for name, raw := range byAnalyzer {
			var failed struct{ Error string }
			if json.Unmarshal(raw, &failed) == nil && failed.Error != "" {
				return nil, fmt.Errorf("%s: %s failed: %s", pkg, name, failed.Error)
			}
			var diags []struct{ Posn, Message string }
			if err := json.Unmarshal(raw, &diags); err != nil {
				return nil, fmt.Errorf("%s: %s: %v", pkg, name, err)
			}
			for _, d := range diags {
				f, err := parsePosn(d.Posn)
				if err != nil {
					return nil, err
				}
				f.Analyzer, f.Message = name, d.Message
				findings = append(findings, f)
			}
		}
	}
	return findings, nil
}

// parsePosn splits "dir/file.go:line:col" into the file's base name and
// the line.
func parsePosn(posn string) (finding, error) {
	file, rest, ok := strings.Cut(posn, ".go:")
	line, _, _ := strings.Cut(rest, ":")
	n, err := strconv.Atoi(line)
	if !ok || err != nil {
		return finding{}, fmt.Errorf("bad position %q", posn)
	}
	return finding{File: filepath.Base(file) + ".go", Line: n}, nil
}
