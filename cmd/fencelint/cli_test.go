package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/fencelint/fencelint/analyzers"
)

func TestParseExplain(t *testing.T) {
	tests := []struct {
		args    []string
		name    string
		ok      bool
		wantErr string
	}{
		{args: nil},
		{args: []string{"./..."}},
		{args: []string{"-json", "./..."}},
		{args: []string{"-explainer"}},
		{args: []string{"explain", "x"}},
		{args: []string{"-explain", "unfencedwrite"}, name: "unfencedwrite", ok: true},
		{args: []string{"--explain", "heldcheck"}, name: "heldcheck", ok: true},
		{args: []string{"-explain=weaktoken"}, name: "weaktoken", ok: true},
		{args: []string{"-explain"}, ok: true, wantErr: "needs the name of a check"},
		{args: []string{"-explain", "a", "b"}, ok: true, wantErr: `extra arguments ["b"]`},
		{args: []string{"-explain=a", "./..."}, ok: true, wantErr: "extra arguments"},
	}
	for _, tt := range tests {
		name, ok, err := parseExplain(tt.args)
		if name != tt.name || ok != tt.ok || !errorContains(err, tt.wantErr) {
			t.Errorf("parseExplain(%q) = %q, %v, %v; want %q, %v, error containing %q",
				tt.args, name, ok, err, tt.name, tt.ok, tt.wantErr)
		}
	}
}

// errorContains reports whether err is nil and want empty, or err's text
// contains want.
func errorContains(err error, want string) bool {
	if err == nil || want == "" {
		return err == nil && want == ""
	}
	return strings.Contains(err.Error(), want)
}

// fakeChecks are analyzers with known docs, so the output can be compared
// exactly; the real checks are covered by TestRealChecksHaveSummaries and
// the binary tests.
var fakeChecks = []*analysis.Analyzer{
	{Name: "alpha", Doc: "alpha: report alphas\n\nAlphas are bad.\nReally.", URL: "https://example.com/alpha"},
	{Name: "beta", Doc: "beta: report betas"},
}

func TestExplain(t *testing.T) {
	tests := []struct {
		name    string
		want    string
		wantErr string
	}{
		{name: "alpha", want: "alpha: report alphas\n\nAlphas are bad.\nReally.\n\nSee https://example.com/alpha\n"},
		{name: "beta", want: "beta: report betas\n"},
		{name: "gamma", wantErr: `unknown check "gamma"; the checks are: alpha, beta`},
		{name: "", wantErr: `unknown check ""`},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		err := explain(&out, fakeChecks, tt.name)
		if out.String() != tt.want || !errorContains(err, tt.wantErr) {
			t.Errorf("explain(%q) wrote %q, %v; want %q, error containing %q", tt.name, out.String(), err, tt.want, tt.wantErr)
		}
	}
}

func TestExplainCommand(t *testing.T) {
	tests := []struct {
		args           []string
		code           int
		handled        bool
		stdout, stderr string
	}{
		{args: []string{"./..."}},
		{args: []string{"-explain", "beta"}, handled: true, stdout: "beta: report betas\n"},
		{args: []string{"-explain", "nope"}, code: exitUsage, handled: true,
			stderr: "fencelint: unknown check \"nope\"; the checks are: alpha, beta\n"},
		{args: []string{"-explain"}, code: exitUsage, handled: true,
			stderr: "fencelint: -explain needs the name of a check: fencelint -explain NAME\n"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code, handled := explainCommand(tt.args, fakeChecks, &stdout, &stderr)
		if code != tt.code || handled != tt.handled || stdout.String() != tt.stdout || stderr.String() != tt.stderr {
			t.Errorf("explainCommand(%q) = %d, %v, stdout %q, stderr %q; want %d, %v, %q, %q",
				tt.args, code, handled, stdout.String(), stderr.String(), tt.code, tt.handled, tt.stdout, tt.stderr)
		}
	}
}

func TestUsageListsChecksWithSummaries(t *testing.T) {
	var out bytes.Buffer
	usage(&out, fakeChecks)
	for _, want := range []string{"  alpha  report alphas\n", "  beta   report betas\n", "fencelint -explain NAME", "Exit codes:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("usage does not contain %q:\n%s", want, out.String())
		}
	}
}

// TestRealChecksHaveSummaries checks that every real check's Doc starts
// with "NAME: summary", as -help and go/analysis expect.
func TestRealChecksHaveSummaries(t *testing.T) {
	var names []string
	for _, a := range analyzers.All() {
		names = append(names, a.Name)
		if !strings.HasPrefix(a.Doc, a.Name+": ") || summary(a) == "" {
			t.Errorf("%s: Doc does not start with %q: %q", a.Name, a.Name+": summary", firstLine(a.Doc))
		}
	}
	for _, want := range []string{"unfencedwrite", "heldcheck", "detachedrenewal", "weaktoken"} {
		if !slices.Contains(names, want) {
			t.Errorf("analyzers.All() lacks %s; has %v", want, names)
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func TestParseStandalone(t *testing.T) {
	tests := []struct {
		args     []string
		ok       bool
		wantErr  string
		checks   []string
		patterns []string
		format   string
		tests    bool
		context  int
		fix      bool
		diff     bool
		cpu, mem string // profiles
	}{
		{args: []string{"./..."}, ok: true, checks: []string{"alpha", "beta"}, patterns: []string{"./..."}, format: "text", tests: true, context: -1},
		{args: []string{"-json", "-test=false", "-c=2", "a", "b"}, ok: true, checks: []string{"alpha", "beta"},
			patterns: []string{"a", "b"}, format: "json", context: 2},
		{args: []string{"-format=sarif", "a"}, ok: true, checks: []string{"alpha", "beta"}, patterns: []string{"a"}, format: "sarif", tests: true, context: -1},
		{args: []string{"-alpha", "./..."}, ok: true, checks: []string{"alpha"}, patterns: []string{"./..."}, format: "text", tests: true, context: -1},
		{args: []string{"-alpha=false", "./..."}, ok: true, checks: []string{"beta"}, patterns: []string{"./..."}, format: "text", tests: true, context: -1},
		{args: []string{"-alpha", "-beta=false", "./..."}, ok: true, checks: []string{"alpha"}, patterns: []string{"./..."}, format: "text", tests: true, context: -1},
		{args: []string{"-fix", "./..."}, ok: true, checks: []string{"alpha", "beta"}, patterns: []string{"./..."}, format: "text", tests: true, context: -1, fix: true},
		{args: []string{"-diff", "./..."}, ok: true, checks: []string{"alpha", "beta"}, patterns: []string{"./..."}, format: "text", tests: true, context: -1, diff: true},
		{args: []string{"-cpuprofile=c.out", "-memprofile=m.out", "./..."}, ok: true, checks: []string{"alpha", "beta"}, patterns: []string{"./..."},
			format: "text", tests: true, context: -1, cpu: "c.out", mem: "m.out"},
		// left to multichecker: go vet's protocol, debugging
		{args: []string{"-flags"}},
		{args: []string{"-V=full"}},
		{args: []string{"-json", "/tmp/vet.cfg"}},
		{args: []string{"-debug=v", "./..."}},
		// bad command lines
		{args: []string{}, ok: true, wantErr: "no packages to analyze"},
		{args: []string{"-json"}, ok: true, wantErr: "no packages to analyze"},
		{args: []string{"-format=xml", "./..."}, ok: true, wantErr: `-format "xml": want one of text, json, sarif`},
		{args: []string{"-json", "-format=sarif", "./..."}, ok: true, wantErr: "disagree"},
		{args: []string{"-fix", "-json", "./..."}, ok: true, wantErr: "cannot be combined with -format json"},
		{args: []string{"-frobnicate", "./..."}, ok: true, wantErr: "flag provided but not defined: -frobnicate"},
		{args: []string{"-alpha=maybe", "./..."}, ok: true, wantErr: "want true or false"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		run, ok, err := parseStandalone(tt.args, fakeChecks, &stderr)
		if ok != tt.ok || !errorContains(err, tt.wantErr) {
			t.Errorf("parseStandalone(%q) ok = %v, err = %v; want %v, error containing %q", tt.args, ok, err, tt.ok, tt.wantErr)
			continue
		}
		if err != nil && !strings.Contains(stderr.String(), tt.wantErr) {
			t.Errorf("parseStandalone(%q): stderr lacks the error %q:\n%s", tt.args, tt.wantErr, stderr.String())
		}
		if !ok || err != nil {
			continue
		}
		got := []any{checkNames(run.checks), run.patterns, run.format, run.tests, run.context, run.fix, run.diff, run.profiles.cpu, run.profiles.mem}
		want := []any{tt.checks, tt.patterns, tt.format, tt.tests, tt.context, tt.fix, tt.diff, tt.cpu, tt.mem}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("parseStandalone(%q) = checks, patterns, format, tests, context, fix, diff, profiles %q; want %q", tt.args, got, want)
		}
	}
}

// TestMissingHeader checks that gcc's and clang's reports of a missing C
// header both name it, and that other reports name none.
func TestMissingHeader(t *testing.T) {
	for _, c := range []struct {
		kind packages.ErrorKind
		msg  string
		want string
	}{
		{packages.ListError, "# example.com/fs\nfs/fs.go:3:11: fatal error: fuse/fuse.h: No such file or directory\ncompilation terminated.\n", "fuse/fuse.h"},
		{packages.ListError, "# example.com/fs\nfs/fs.go:3:10: fatal error: 'security/pam_appl.h' file not found\n", "security/pam_appl.h"},
		{packages.ListError, "# example.com/fs\nfs/fs.go:6:9: error: 'x' undeclared\n", ""},
		{packages.TypeError, "fatal error: fuse.h: No such file or directory", ""},
	} {
		if got := missingHeader(packages.Error{Kind: c.kind, Msg: c.msg}); got != c.want {
			t.Errorf("missingHeader(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}
