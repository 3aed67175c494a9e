package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The test binary is also the custom golangci-lint: with runMainEnv set it
// runs main, so the test links golangci-lint once instead of building it
// again.
const runMainEnv = "FENCELINT_GOLANGCI_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// An issue is the part of golangci-lint's JSON output the test checks.
type issue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename string
		Line     int
	}
}

// golangciLint runs the custom golangci-lint in the fixture module with
// the given config and returns the issues it reports, its stderr and exit
// code.
func golangciLint(t *testing.T, config string) (issues []issue, stderr string, code int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "run", "--config", config, "--output.json.path=stdout", "--show-stats=false", "./...")
	cmd.Dir = "fixture"
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "GOLANGCI_LINT_CACHE="+t.TempDir())
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if err != nil && cmd.ProcessState == nil {
		t.Fatal(err)
	}
	code = cmd.ProcessState.ExitCode()
	if code == 0 || code == 1 { // 1: issues found
		var res struct{ Issues []issue }
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("golangci-lint printed no JSON (%v): stdout %q, stderr %s", err, out.String(), errOut.String())
		}
		issues = res.Issues
	}
	return issues, errOut.String(), code
}

// wanted lists the fixture's lines marked "// want fencelint" (file:line),
// optionally only those in non-test files.
func wanted(t *testing.T, tests bool) []string {
	t.Helper()
	files, err := filepath.Glob("fixture/*.go")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, name := range files {
		if !tests && strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			if strings.HasSuffix(sc.Text(), "// want fencelint") {
				want = append(want, fmt.Sprintf("%s:%d", filepath.Base(name), line))
			}
		}
		f.Close()
	}
	if len(want) == 0 {
		t.Fatal("the fixture marks no expected finding")
	}
	slices.Sort(want)
	return want
}

// positions returns the issues' file:line, sorted, and fails if an issue
// is not fencelint's unfencedwrite finding.
func positions(t *testing.T, issues []issue) []string {
	t.Helper()
	var got []string
	for _, is := range issues {
		if is.FromLinter != "fencelint" || !strings.Contains(is.Text, "without a fencing token") {
			t.Errorf("unexpected issue from %s: %s", is.FromLinter, is.Text)
		}
		got = append(got, fmt.Sprintf("%s:%d", filepath.Base(is.Pos.Filename), is.Pos.Line))
	}
	slices.Sort(got)
	return got
}

// TestPlugin runs golangci-lint with fencelint's plugin over the fixture:
// the unfenced writes are reported under the linter name fencelint, the
// fenced write and the write marked //nolint:fencelint are not.
func TestPlugin(t *testing.T) {
	issues, stderr, code := golangciLint(t, ".golangci.yml")
	if code != 1 {
		t.Fatalf("exit code %d, want 1 (issues found); stderr:\n%s", code, stderr)
	}
	if got, want := positions(t, issues), wanted(t, true); !slices.Equal(got, want) {
		t.Errorf("findings at %v, want %v", got, want)
	}
}

// TestPluginSettings checks the plugin's settings: the checks to run and
// the test-file switch.
func TestPluginSettings(t *testing.T) {
	issues, stderr, code := golangciLint(t, "tests-off.golangci.yml")
	if code != 1 {
		t.Fatalf("exit code %d, want 1 (issues found); stderr:\n%s", code, stderr)
	}
	if got, want := positions(t, issues), wanted(t, false); !slices.Equal(got, want) {
		t.Errorf("with tests: false, findings at %v, want %v", got, want)
	}

	bad := filepath.Join(t.TempDir(), "bad.golangci.yml")
	config := strings.Replace(readFile(t, "fixture/.golangci.yml"), "settings:\n          tests: true", "settings:\n          checks: [unfencedwirte]", 1)
	if err := os.WriteFile(bad, []byte(config), 0o666); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = golangciLint(t, bad)
	if code == 0 || code == 1 || !strings.Contains(stderr, `unknown check "unfencedwirte"`) {
		t.Errorf("a misspelt check: exit code %d, stderr %q; want a failure naming the check", code, stderr)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
