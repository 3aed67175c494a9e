package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestLoadErrorsOnce checks that a package that fails to load reports its
// errors once each (not again for its test variant, nor as go list's copy
// of the compiler's output, nor as "failed prerequisites" per check), with
// paths relative to the current directory, and exits 1.
func TestLoadErrorsOnce(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":             "module example.com/broken\n\ngo 1.26\n",
		"a.go":               "package broken\n\nfunc F() int {\n\treturn 1 +\n}\n",
		"a_test.go":          "package broken\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {}\n",
		"typeerr/t.go":       "package typeerr\n\nfunc G() int { return \"x\" }\n",
		"typeerr/t2_test.go": "package typeerr\n",
	}
	writeFiles(t, dir, files)
	got := run(t, dir, fencelintBin, "./...")
	if got.code != 1 {
		t.Errorf("exit code %d, want 1", got.code)
	}
	lines := strings.Split(strings.TrimSpace(got.stderr), "\n")
	seen := make(map[string]bool)
	for _, line := range lines {
		if seen[line] {
			t.Errorf("printed twice: %s", line)
		}
		seen[line] = true
		if strings.Contains(line, "prerequisites") || strings.Contains(line, "analysis skipped") || strings.Contains(line, dir) {
			t.Errorf("unexpected line: %s", line)
		}
	}
	checkContains(t, "stderr", got.stderr, []string{"a.go:5:1: expected operand", `typeerr/t.go:3:23: cannot use "x"`})
	if strings.Count(got.stderr, "t.go:3:23") != 1 || strings.Count(got.stderr, "a.go:5:1") != 1 {
		t.Errorf("an error is printed more than once:\n%s", got.stderr)
	}
}

// TestMissingCHeader checks that a cgo package whose C header is missing
// reports cgo's own error and what to do about it, not only the type
// checker's "could not import C", and exits 1.
func TestMissingCHeader(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"go.mod": "module example.com/fuse\n\ngo 1.26\n",
		"fs/fs.go": `package fs

// #include <fencelint_missing_header.h>
import "C"

func Mount() int { return int(C.fuse_mount()) }
`,
	})
	got := run(t, dir, fencelintBin, "./...")
	if got.code != 1 {
		t.Errorf("exit code %d, want 1", got.code)
	}
	checkContains(t, "stderr", got.stderr, []string{
		"fs/fs.go:3:11: fatal error: fencelint_missing_header.h: No such file or directory",
		"cgo could not find the C header fencelint_missing_header.h",
		"install the development package of the library that provides it",
	})
}

// TestBrokenUnimportedPackage checks that a package of the module that does
// not build fails only the runs that need it. Standalone mode loads, for
// interface dispatch, the packages of the module that may implement an
// interface the named ones call through: such a package that does not
// build, and that no named one imports, is left out with a warning
// (Harness's web package embeds assets that are built separately); one that
// implements nothing they call is not loaded at all; ./... still reports the
// error.
func TestBrokenUnimportedPackage(t *testing.T) {
	dir := writeModule(t)
	files := map[string]string{
		"web/web.go": "package web\n\nimport \"embed\"\n\n//go:embed dist\nvar Dist embed.FS\n",
		// May implement svc.Totals: loaded, with web.
		"web/uses/u.go": `package uses

import (
	"context"

	_ "example.com/vetme/web"
)

type Totals struct{}

func (Totals) Save(ctx context.Context, id, total int64) error { return nil }
`,
		// Implements nothing svc calls.
		"web/other/o.go": "package other\n\nimport _ \"example.com/vetme/web\"\n",
	}
	writeFiles(t, dir, files)
	for _, tt := range []struct {
		pattern string
		want    finding
		warning string // "" for none
	}{
		{"./svc", svcFinding, "fencelint: warning: example.com/vetme/web does not build and no named package imports it: not analyzed, and calls through interfaces are not resolved to its types\n" +
			"fencelint: warning: example.com/vetme/web/uses does not build and no named package imports it: not analyzed, and calls through interfaces are not resolved to its types\n"},
		{"./worker", workerFinding, ""}, // no interface to dispatch: nothing else loaded
	} {
		got := run(t, dir, fencelintBin, "-json", tt.pattern)
		if got.code != 0 {
			t.Errorf("fencelint %s: exit code %d, want 0\nstderr:\n%s", tt.pattern, got.code, got.stderr)
		}
		findings, err := parseJSON(got.stdout)
		if err != nil {
			t.Fatalf("-json output: %v\n%s", err, got.stdout)
		}
		if len(findings) != 1 || findings[0].key() != tt.want {
			t.Errorf("fencelint %s: findings %v, want %v", tt.pattern, findings, tt.want)
		}
		if got.stderr != tt.warning {
			t.Errorf("fencelint %s: stderr\n%s\nwant\n%s", tt.pattern, got.stderr, tt.warning)
		}
	}
	got := run(t, dir, fencelintBin, "./...")
	if got.code != 3 {
		t.Errorf("fencelint ./...: exit code %d, want 3 (findings, and web's error)\nstderr:\n%s", got.code, got.stderr)
	}
	checkContains(t, "stderr", got.stderr, []string{"web/web.go:5:12: pattern dist: no matching files found"})
}

// sarifModule is testModule plus a package whose unfenced writes are
// silenced, one by //fencelint:ignore and one by //nolint:fencelint.
func sarifModule(t *testing.T) string {
	dir := writeModule(t)
	text := `package silenced

import (
	"context"
	"database/sql"
)

func Recompute(ctx context.Context, db *sql.DB, conn *sql.Conn, id, total int64) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", id); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", id)
	//fencelint:ignore totals are recomputed from the ledger, so the last write wins
	if _, err := db.ExecContext(ctx, "UPDATE totals SET total = $1 WHERE id = $2", total, id); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE totals SET seen = now() WHERE id = $1", id) //nolint:fencelint // a timestamp only
	return err
}
`
	os.MkdirAll(filepath.Join(dir, "silenced"), 0o777)
	if err := os.WriteFile(filepath.Join(dir, "silenced", "silenced.go"), []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	return dir
}

// sarifLog is the part of a SARIF log the test reads.
type sarifLog struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string
				Rules []struct {
					ID               string
					ShortDescription struct{ Text string }
					FullDescription  struct{ Text string }
					Help             struct{ Text string }
					HelpURI          string
				}
			}
		}
		OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
		Results            []struct {
			RuleID    string
			RuleIndex int
			Level     string
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string
						URIBaseID string `json:"uriBaseId"`
					}
					Region struct{ StartLine, StartColumn, EndLine, EndColumn int }
				}
			}
			Suppressions []struct{ Kind, Justification string }
		}
	}
}

// TestSARIF checks -format sarif: a SARIF 2.1.0 log with the fields GitHub
// code scanning requires, one rule per check with its help, relative paths,
// and silenced findings as suppressed results.
func TestSARIF(t *testing.T) {
	dir := sarifModule(t)
	got := run(t, dir, fencelintBin, "-format", "sarif", "./...")
	if got.code != 0 {
		t.Fatalf("exit code %d, want 0\nstderr:\n%s", got.code, got.stderr)
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(got.stdout), &raw); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, got.stdout)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(got.stdout), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 {
		t.Fatalf("version %q, $schema %q, %d runs; want 2.1.0, the 2.1.0 schema, one run", log.Version, log.Schema, len(log.Runs))
	}
	r := log.Runs[0]
	if r.Tool.Driver.Name != "fencelint" {
		t.Errorf("tool.driver.name %q", r.Tool.Driver.Name)
	}
	var ruleIDs []string
	for _, rule := range r.Tool.Driver.Rules {
		ruleIDs = append(ruleIDs, rule.ID)
		if rule.ShortDescription.Text == "" || rule.FullDescription.Text == rule.ShortDescription.Text || !strings.HasPrefix(rule.Help.Text, rule.ID+": ") ||
			!strings.HasPrefix(rule.HelpURI, "https://") || !strings.HasSuffix(rule.HelpURI, "/"+rule.ID) {
			t.Errorf("rule %s lacks descriptions, help or its URL: %+v", rule.ID, rule)
		}
	}
	if !slices.Equal(ruleIDs, checkNames()) {
		t.Errorf("rule ids %v, want the checks %v", ruleIDs, checkNames())
	}
	if base := r.OriginalURIBaseIDs["%SRCROOT%"].URI; !strings.HasPrefix(base, "file:///") || !strings.HasSuffix(base, "/") {
		t.Errorf("%%SRCROOT%% is %q, want the directory's file URI", base)
	}
	type result struct {
		rule, uri  string
		line       int
		suppressed string
	}
	var results []result
	for _, res := range r.Results {
		if res.RuleIndex >= len(ruleIDs) || ruleIDs[res.RuleIndex] != res.RuleID || res.Level != "warning" || res.Message.Text == "" || len(res.Locations) != 1 {
			t.Errorf("malformed result: %+v", res)
			continue
		}
		loc := res.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || loc.Region.StartColumn < 1 || loc.Region.EndLine < loc.Region.StartLine {
			t.Errorf("location %+v: want a path relative to %%SRCROOT%% and a region", loc)
		}
		sup := ""
		for _, s := range res.Suppressions {
			sup += s.Kind + ": " + s.Justification
		}
		results = append(results, result{res.RuleID, loc.ArtifactLocation.URI, loc.Region.StartLine, sup})
	}
	want := []result{
		{"unfencedwrite", "silenced/silenced.go", 14, "inSource: totals are recomputed from the ledger, so the last write wins"},
		{"unfencedwrite", "silenced/silenced.go", 17, "inSource: a timestamp only"},
		{"unfencedwrite", "svc/svc.go", 18, ""},
		{"unfencedwrite", "vetme.go", 13, ""},
		{"unfencedwrite", "worker/worker.go", 15, ""},
	}
	slices.SortFunc(results, func(a, b result) int { return strings.Compare(a.uri, b.uri)*100 + (a.line - b.line) })
	if !slices.Equal(results, want) {
		t.Errorf("results:\n%v\nwant:\n%v", results, want)
	}

	// Text output still hides what is silenced.
	text := run(t, dir, fencelintBin, "./silenced")
	if text.code != 0 || text.stderr != "" {
		t.Errorf("fencelint ./silenced: exit code %d, stderr %q; want 0 and nothing", text.code, text.stderr)
	}
}

// TestVerbose checks that -v says where the time went, and that progress
// is not drawn when stderr is not a terminal.
func TestVerbose(t *testing.T) {
	got := run(t, writeModule(t), fencelintBin, "-v", "./...")
	if got.code != 3 {
		t.Errorf("exit code %d, want 3", got.code)
	}
	checkContains(t, "stderr", got.stderr, []string{"packages analyzed", "load (go list, parse, type-check)", "analysis CPU time by analyzer", "lease ", "slowest packages"})
	if !regexp.MustCompile(`(?m)^    program summary: +[0-9.]+m?s, [123] pass(es)?, (settled|not settled)`).MatchString(got.stderr) {
		t.Errorf("-v does not say how many summary passes ran:\n%s", got.stderr)
	}
	if strings.Contains(got.stderr, "\r") || strings.Contains(got.stderr, "\033[") {
		t.Errorf("progress drawn on a stderr that is not a terminal:\n%q", got.stderr)
	}
}

// fixModuleSource has an etcd Put under a concurrency.Mutex, which
// unfencedwrite can fix, and an unfenced SQL write, which it cannot.
const fixModuleSource = `package fixme

import (
	"context"
	"database/sql"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

func Publish(ctx context.Context, cli *clientv3.Client, m *concurrency.Mutex, db *sql.DB, cfg string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := cli.Put(ctx, "/config", cfg)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE configs SET body = $1", cfg)
	return err
}
`

// TestFixCommand runs -diff and -fix on a module against the real etcd
// client (its go.mod is the conformance module's): -diff changes nothing,
// -fix rewrites the Put into a Txn that checks Succeeded, the result
// builds, and the SQL write it cannot fix is still printed, with exit 3.
func TestFixCommand(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(moduleRoot, "testdata", "conformance")
	gomod, err := os.ReadFile(filepath.Join(conf, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gosum, err := os.ReadFile(filepath.Join(conf, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	gomod = []byte(strings.Replace(string(gomod), "module github.com/fencelint/fencelint/testdata/conformance", "module example.com/fixme", 1))
	for name, data := range map[string][]byte{"go.mod": gomod, "go.sum": gosum, "fixme.go": []byte(fixModuleSource)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "fixme.go")

	diff := run(t, dir, fencelintBin, "-diff", "./...")
	if data, _ := os.ReadFile(file); string(data) != fixModuleSource || diff.code != 3 {
		t.Fatalf("-diff: exit code %d (want 3), file changed: %v\nstderr:\n%s", diff.code, string(data) != fixModuleSource, diff.stderr)
	}
	checkContains(t, "-diff's stdout", diff.stdout, []string{"--- a/fixme.go", "-\t_, err := cli.Put(ctx, \"/config\", cfg)", "+\tif err == nil && !resp.Succeeded {"})
	checkContains(t, "-diff's stderr", diff.stderr, []string{"fixme.go:16:", "fixme.go:20:"})

	fix := run(t, dir, fencelintBin, "-fix", "./...")
	if fix.code != 3 {
		t.Errorf("-fix: exit code %d, want 3 (a finding remains)\nstderr:\n%s", fix.code, fix.stderr)
	}
	if strings.Contains(fix.stderr, "fixme.go:16:") || !strings.Contains(fix.stderr, "fixme.go:20:") {
		t.Errorf("-fix: want only the SQL write (line 20) printed:\n%s", fix.stderr)
	}
	data, _ := os.ReadFile(file)
	want := strings.Replace(fixModuleSource, `	_, err := cli.Put(ctx, "/config", cfg)
`, `	resp, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("/config", cfg)).Commit()
	if err == nil && !resp.Succeeded {
		err = concurrency.ErrSessionExpired
	}
`, 1)
	if string(data) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", data, want)
	}
	if build := run(t, dir, "go", "build", "./..."); build.code != 0 {
		t.Errorf("the fixed module does not build:\n%s", build.stderr)
	}
	again := run(t, dir, fencelintBin, "-fix", "./...")
	if again.code != 3 || strings.Count(again.stderr, "fixme.go:") != 1 {
		t.Errorf("-fix again: exit code %d, want 3 and the one SQL finding:\n%s", again.code, again.stderr)
	}
}

// TestProgressOnTerminal runs fencelint on a pseudo-terminal (util-linux's
// script): the progress line is drawn and cleared on stderr; with -json it
// is not drawn.
func TestProgressOnTerminal(t *testing.T) {
	dir := writeModule(t)
	tty := func(args string) string {
		got := run(t, dir, "script", "-qec", fencelintBin+" "+args, "/dev/null")
		return got.stdout
	}
	out := tty("./...")
	checkContains(t, "the terminal", out, []string{"\r\033[Kfencelint: listing packages ("})
	// The progress line is cleared before the first finding, whichever it is.
	if !regexp.MustCompile(`\r\x1b\[K[\w./]+\.go:\d+:\d+: `).MatchString(out) {
		t.Errorf("the terminal does not clear the progress line before the first finding:\n%q", out)
	}
	if out := tty("-json ./..."); strings.Contains(out, "\033[K") {
		t.Errorf("progress drawn with -json:\n%q", out)
	}
}

// TestRelatedPositionsInText: a finding's related positions (here the
// other write of a function run only under the lease) are printed in text
// output too, indented under it, as staticcheck prints them.
func TestRelatedPositionsInText(t *testing.T) {
	dir := writeModule(t)
	text := `package closer

import (
	"context"
	"database/sql"
)

func Close(ctx context.Context, db *sql.DB, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(1)"); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock(1)")
	return closeDay(ctx, db)
}

func closeDay(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, "UPDATE invoices SET state = 'closed'"); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE days SET closed = true")
	return err
}
`
	os.MkdirAll(filepath.Join(dir, "closer"), 0o777)
	if err := os.WriteFile(filepath.Join(dir, "closer", "closer.go"), []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	got := run(t, dir, fencelintBin, "./closer")
	lines := strings.Split(strings.TrimSpace(got.stderr), "\n")
	if got.code != 3 || len(lines) != 2 ||
		!strings.HasPrefix(lines[0], filepath.Join("closer", "closer.go")+":17:") || !strings.Contains(lines[0], "closeDay makes 1 more unfenced write") ||
		lines[1] != "\t"+filepath.Join("closer", "closer.go")+":20:26: also unfenced under the lease: DB.ExecContext (UPDATE days)" {
		t.Errorf("exit code %d, stderr:\n%s\nwant exit code 3, the finding at closer.go:17 and its related position closer.go:20 indented under it", got.code, got.stderr)
	}
}

// billingPackage is a package whose one function makes two unfenced
// writes, at billing.go:10 and billing.go:13.
const billingPackage = `package billing

import (
	"context"
	"database/sql"
)

// CloseDay marks the day's invoices and the day itself closed.
func CloseDay(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, "UPDATE invoices SET state = 'closed'"); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE days SET closed = true")
	return err
}
`

// TestRelatedPositionsOfReachedWrites checks that a finding at a region's
// call of another package's function that makes several unfenced writes
// points at each of them as a related position (in text and -json), and
// that go vet, which analyzes the callee's package in another process,
// still reports the call and names the writes in its message.
func TestRelatedPositionsOfReachedWrites(t *testing.T) {
	dir := writeFiles(t, writeModule(t), map[string]string{
		"billing/billing.go": billingPackage,
		"closer/closer.go": `package closer

import (
	"context"
	"database/sql"

	"example.com/vetme/billing"
)

func Close(ctx context.Context, db *sql.DB, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(1)"); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock(1)")
	return billing.CloseDay(ctx, db)
}
`,
	})
	invoices, days := filepath.Join("billing", "billing.go")+":10:", filepath.Join("billing", "billing.go")+":13:"

	got := run(t, dir, fencelintBin, "./closer")
	lines := strings.Split(strings.TrimSpace(got.stderr), "\n")
	if got.code != 3 || len(lines) != 3 ||
		!strings.HasPrefix(lines[0], filepath.Join("closer", "closer.go")+":15:") || !strings.Contains(lines[0], "it reaches 2 unfenced writes") ||
		!strings.HasPrefix(lines[1], "\t"+invoices) || !strings.Contains(lines[1], "reached unfenced: DB.ExecContext (UPDATE invoices)") ||
		!strings.HasPrefix(lines[2], "\t"+days) || !strings.Contains(lines[2], "reached unfenced: DB.ExecContext (UPDATE days)") {
		t.Errorf("exit code %d, stderr:\n%s\nwant exit code 3, the finding at closer.go:15 and the two writes of billing.go indented under it", got.code, got.stderr)
	}

	js := run(t, dir, fencelintBin, "-json", "./closer")
	for _, want := range []string{invoices, days} {
		if !strings.Contains(js.stdout, `"related": [`) || !strings.Contains(js.stdout, filepath.Join(dir, want)) {
			t.Errorf("-json output has no related position %s:\n%s", want, js.stdout)
		}
	}

	vet := run(t, dir, "go", "vet", "-vettool="+fencelintBin, "./closer")
	checkContains(t, "go vet's stderr", vet.stderr, []string{"closer.go:15:", "it reaches 2 unfenced writes", "billing.go:10", "billing.go:13"})
}

// TestRelatedPositionsOfGuardedWrites checks heldcheck's related
// positions end to end: a check's finding names the first write it
// guards and points, indented under it, at the others and at the writes
// a guarded call reaches in another package.
func TestRelatedPositionsOfGuardedWrites(t *testing.T) {
	dir := writeFiles(t, writeModule(t), map[string]string{
		"billing/billing.go": billingPackage,
		"closer/closer.go": `package closer

import (
	"context"
	"database/sql"

	"example.com/vetme/billing"
)

type Lease struct{}

// Held tells whether this process still holds the billing lease.
//
//fencelint:check
func (l *Lease) Held(ctx context.Context) bool { return true }

func Close(ctx context.Context, l *Lease, db *sql.DB) error {
	if l.Held(ctx) {
		db.ExecContext(ctx, "UPDATE ledger SET frozen = true")
		return billing.CloseDay(ctx, db)
	}
	return nil
}
`,
	})
	closer := filepath.Join("closer", "closer.go")
	invoices, days := filepath.Join("billing", "billing.go")+":10:", filepath.Join("billing", "billing.go")+":13:"

	got := run(t, dir, fencelintBin, "./closer")
	lines := strings.Split(strings.TrimSpace(got.stderr), "\n")
	if got.code != 3 || len(lines) != 4 ||
		!strings.HasPrefix(lines[0], closer+":18:") || !strings.Contains(lines[0], "Lease.Held only tells that the lease was held when it ran") ||
		!strings.Contains(lines[0], "UPDATE ledger") ||
		!strings.HasPrefix(lines[1], "\t"+closer+":20:") || !strings.Contains(lines[1], "also guarded, unfenced: billing.CloseDay") ||
		!strings.HasPrefix(lines[2], "\t"+invoices) || !strings.Contains(lines[2], "reached unfenced: DB.ExecContext (UPDATE invoices)") ||
		!strings.HasPrefix(lines[3], "\t"+days) || !strings.Contains(lines[3], "reached unfenced: DB.ExecContext (UPDATE days)") {
		t.Errorf("exit code %d, stderr:\n%s\nwant exit code 3, the finding at closer.go:18, and under it the call at line 20 and the two writes of billing.go it reaches", got.code, got.stderr)
	}

	js := run(t, dir, fencelintBin, "-json", "./closer")
	for _, want := range []string{closer + ":20:", invoices, days} {
		if !strings.Contains(js.stdout, filepath.Join(dir, want)) {
			t.Errorf("-json output has no related position %s:\n%s", want, js.stdout)
		}
	}
}

// closerMain is a main package that wires the PostgreSQL ledger into
// closer.Close, passing it args after the ledger.
func closerMain(args string) string {
	return `package main

import (
	"context"
	"database/sql"

	"example.com/vetme/books"
	"example.com/vetme/closer"
)

func main() {
	ctx := context.Background()
	db, _ := sql.Open("postgres", "")
	conn, _ := db.Conn(ctx)
	closer.Close(ctx, &books.Ledger{DB: db}, ` + args + `)
}
`
}

// TestRelatedPositionsStopAtOwnRelease: a function that writes and then
// lets go of the lock it is handed ends its caller's region at the call;
// the finding there names the writes it makes before letting go, not the
// one after (beforeOwnRelease).
func TestRelatedPositionsStopAtOwnRelease(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"go.mod": "module example.com/games\n\ngo 1.26\n",
		"store/store.go": `package store

import (
	"context"
	"database/sql"
)

// A Lock is a lease on one game.
type Lock struct{ key string }

// Obtain takes the game's lock.
//
//fencelint:acquire
func Obtain(ctx context.Context, key string) (*Lock, error) { return &Lock{key: key}, nil }

// Release lets it go.
//
//fencelint:release
func (l *Lock) Release(ctx context.Context) {}

// SaveAndRelease stores the game, lets go of the lock it is handed, and
// then indexes the game under no lock.
func SaveAndRelease(ctx context.Context, db *sql.DB, code string, lock *Lock) {
	db.ExecContext(ctx, "UPDATE games SET state = 'next' WHERE code = $1", code)
	db.ExecContext(ctx, "UPDATE players SET turn = turn + 1 WHERE game = $1", code)
	lock.Release(ctx)
	db.ExecContext(ctx, "UPDATE game_index SET seen = now() WHERE code = $1", code)
}
`,
		"games.go": `package games

import (
	"context"
	"database/sql"

	"example.com/games/store"
)

// EndTurn changes the game under its lock and hands the lock on.
func EndTurn(ctx context.Context, db *sql.DB, code string) error {
	lock, err := store.Obtain(ctx, "game:"+code)
	if err != nil {
		return err
	}
	store.SaveAndRelease(ctx, db, code, lock)
	return nil
}
`,
	})
	store := filepath.Join("store", "store.go")
	got := run(t, dir, fencelintBin, "./...")
	lines := strings.Split(strings.TrimSpace(got.stderr), "\n")
	if got.code != 3 || len(lines) != 3 ||
		!strings.HasPrefix(lines[0], "games.go:16:") || !strings.Contains(lines[0], "it reaches 2 unfenced writes") ||
		!strings.HasPrefix(lines[1], "\t"+store+":24:") || !strings.HasPrefix(lines[2], "\t"+store+":25:") {
		t.Errorf("exit code %d, stderr:\n%s\nwant exit code 3, the finding at games.go:16 and the two writes SaveAndRelease makes before it lets go (store.go:24, 25), not the one after (27)", got.code, got.stderr)
	}
}

// TestRelatedPositionsThroughInterfaces checks that a region's call
// through the application's own interface points at the writes the
// implementation its message names reaches: main wires the PostgreSQL
// ledger into a package that sees only the interface.
func TestRelatedPositionsThroughInterfaces(t *testing.T) {
	dir := writeFiles(t, writeModule(t), map[string]string{
		"books/books.go": `package books

import (
	"context"
	"database/sql"
)

// Ledger closes days in PostgreSQL.
type Ledger struct{ DB *sql.DB }

// CloseDay marks the day's invoices and the day itself closed.
func (l *Ledger) CloseDay(ctx context.Context) error {
	if _, err := l.DB.ExecContext(ctx, "UPDATE invoices SET state = 'closed'"); err != nil {
		return err
	}
	_, err := l.DB.ExecContext(ctx, "UPDATE days SET closed = true")
	return err
}
`,
		"closer/closer.go": `package closer

import (
	"context"
	"database/sql"
)

// Books closes a day; main wires the PostgreSQL ledger in.
type Books interface {
	CloseDay(ctx context.Context) error
}

func Close(ctx context.Context, books Books, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(1)"); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock(1)")
	return books.CloseDay(ctx)
}
`,
		"cmd/closer/main.go": closerMain("conn"),
	})
	invoices, days := filepath.Join("books", "books.go")+":13:", filepath.Join("books", "books.go")+":16:"

	got := run(t, dir, fencelintBin, "./books", "./closer", "./cmd/closer")
	lines := strings.Split(strings.TrimSpace(got.stderr), "\n")
	if got.code != 3 || len(lines) != 3 ||
		!strings.HasPrefix(lines[0], filepath.Join("closer", "closer.go")+":18:") || !strings.Contains(lines[0], "via *books.Ledger.CloseDay; it reaches 2 unfenced writes") ||
		!strings.HasPrefix(lines[1], "\t"+invoices) || !strings.Contains(lines[1], "reached unfenced: DB.ExecContext (UPDATE invoices)") ||
		!strings.HasPrefix(lines[2], "\t"+days) || !strings.Contains(lines[2], "reached unfenced: DB.ExecContext (UPDATE days)") {
		t.Errorf("exit code %d, stderr:\n%s\nwant exit code 3, the finding at closer.go:18 and the two writes of books.go indented under it", got.code, got.stderr)
	}

	// A function that makes another write beside its call through the
	// interface points at that call, not into the implementation.
	writeFiles(t, dir, map[string]string{"closer/closer.go": `package closer

import (
	"context"
	"database/sql"
)

// Books closes a day; main wires the PostgreSQL ledger in.
type Books interface {
	CloseDay(ctx context.Context) error
}

func Close(ctx context.Context, books Books, conn *sql.Conn, db *sql.DB) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(1)"); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock(1)")
	return closeAndStamp(ctx, books, db)
}

// Reopen runs it with no lock: the writes are reported at Close's call.
func Reopen(ctx context.Context, books Books, db *sql.DB) error {
	return closeAndStamp(ctx, books, db)
}

func closeAndStamp(ctx context.Context, books Books, db *sql.DB) error {
	if err := books.CloseDay(ctx); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE stamps SET closed_at = now()")
	return err
}
`, "cmd/closer/main.go": closerMain("conn, db")})
	got = run(t, dir, fencelintBin, "./books", "./closer", "./cmd/closer")
	lines = strings.Split(strings.TrimSpace(got.stderr), "\n")
	closer := filepath.Join("closer", "closer.go")
	if got.code != 3 || len(lines) != 3 ||
		!strings.HasPrefix(lines[0], closer+":18:") || !strings.Contains(lines[0], "it reaches 2 unfenced writes") ||
		!strings.HasPrefix(lines[1], "\t"+closer+":27:") || !strings.Contains(lines[1], "reached unfenced: Books.CloseDay") ||
		!strings.HasPrefix(lines[2], "\t"+closer+":30:") || !strings.Contains(lines[2], "reached unfenced: DB.ExecContext (UPDATE stamps)") {
		t.Errorf("exit code %d, stderr:\n%s\nwant exit code 3, the finding at closer.go:18 and under it the call through the interface at line 27 and the write at line 30", got.code, got.stderr)
	}
}
