// Command sqlcsweep runs fencegen over sqlc's own end-to-end test schemas,
// with a bigint fence column added to every table, and reports per engine how
// each schema fared. It is the yardstick of issue 11: fencegen should accept
// every schema sqlc accepts unless it has a fencing reason to refuse, and
// then name the file, line and table. Run by hand (CI cannot fetch sqlc's
// repository), through scripts/sqlc-sweep.sh, which lays the test data out
// and builds fencegen:
//
//	sqlcsweep -testdata DIR -fencegen BIN [-work DIR] [-j N] [-v]
//
// DIR is sqlc's internal/endtoend/testdata. Each sqlc configuration's
// schema (an sqlc "sql" or "packages" entry) is one case; cases with the
// same engine and schema text run once. Each case gets the schema files
// plus fence.sql, which adds the column by ALTER TABLE in the engine's
// dialect, and is classified as
//
//	ok             fencegen wrote a package, and it compiles
//	compile        fencegen wrote a package that does not compile
//	refused-reason a reason fencegen owes the user, placed at file:line: it
//	               cannot fence the table safely (no key to name a row), Go
//	               names clash, or the database itself would reject the
//	               schema (an unknown type)
//	nothing        the schema has no table to fence
//	refused        placed at file:line, sqlc accepts the schema: a gap
//	sqlc-rejects   refused, and sqlc rejects the schema too
//	bad-error      an error without the user's file:line, or sqlc's raw text
//	crash          a panic, a signal or a timeout
//	leaked         files left in $TMPDIR or temporary files in the output
//
// "Does sqlc accept it" is answered by sqlc itself (run through fencegen's
// binary, which links it) on the same schema with a trivial query.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/fencelint/fencelint/gen"
)

func main() {
	testdata := flag.String("testdata", "", "sqlc's internal/endtoend/testdata, laid out")
	fencegen := flag.String("fencegen", "", "the fencegen binary to sweep")
	work := flag.String("work", "", "working directory (default: a new temporary directory, kept)")
	jobs := flag.Int("j", 2, "cases run at once")
	verbose := flag.Bool("v", false, "list every case that is not ok, refused-reason, nothing or sqlc-rejects")
	flag.Parse()
	if *testdata == "" || *fencegen == "" {
		fmt.Fprintln(os.Stderr, "usage: sqlcsweep -testdata DIR -fencegen BIN [-work DIR] [-j N] [-v]")
		os.Exit(2)
	}
	if err := sweep(*testdata, *fencegen, *work, *jobs, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "sqlcsweep:", err)
		os.Exit(1)
	}
}

// A schemaCase is one distinct schema of sqlc's suite.
type schemaCase struct {
	Engine gen.Engine
	Dir    string   // the configuration's directory
	Files  []string // schema files, relative to Dir, in sqlc's order
	Uses   int      // configurations sharing this engine and schema text

	ID      string // directory name under the work directory
	Outcome string
	Detail  string // first line of the message, for the report
}

func sweep(testdata, fencegen, work string, jobs int, verbose bool) error {
	fencegen, err := filepath.Abs(fencegen)
	if err != nil {
		return err
	}
	if work == "" {
		if work, err = os.MkdirTemp("", "sqlcsweep-"); err != nil {
			return err
		}
	}
	cases, total, err := findCases(testdata)
	if err != nil {
		return err
	}
	fmt.Printf("%d sqlc configurations' schemas, %d distinct; work in %s\n", total, len(cases), work)

	var wg sync.WaitGroup
	next := make(chan *schemaCase)
	for range max(jobs, 1) {
		wg.Go(func() {
			for c := range next {
				c.run(fencegen, work)
			}
		})
	}
	for i, c := range cases {
		c.ID = fmt.Sprintf("c%04d", i)
		next <- c
	}
	close(next)
	wg.Wait()

	if err := compileOutputs(work, cases); err != nil {
		return err
	}
	report(cases, verbose)
	return nil
}

// sqlcConfig is the part of sqlc's configuration (version 1 or 2, JSON or
// YAML) that names schemas.
type sqlcConfig struct {
	Packages []sqlcEntry `yaml:"packages"`
	SQL      []sqlcEntry `yaml:"sql"`
}

type sqlcEntry struct {
	Engine string    `yaml:"engine"`
	Schema yaml.Node `yaml:"schema"`
}

func (e sqlcEntry) schemaPaths() []string {
	switch e.Schema.Kind {
	case yaml.ScalarNode:
		return []string{e.Schema.Value}
	case yaml.SequenceNode:
		var paths []string
		for _, n := range e.Schema.Content {
			paths = append(paths, n.Value)
		}
		return paths
	}
	return nil
}

// findCases reads every sqlc configuration under root and returns the
// distinct (engine, schema text) cases, and how many entries there were.
func findCases(root string) ([]*schemaCase, int, error) {
	byKey := map[[32]byte]*schemaCase{}
	var cases []*schemaCase
	total := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch d.Name() {
		case "sqlc.json", "sqlc.yaml", "sqlc.yml":
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var cfg sqlcConfig
		if yaml.Unmarshal(data, &cfg) != nil {
			return nil // sqlc's own bad-config cases
		}
		dir := filepath.Dir(path)
		for _, e := range append(cfg.Packages, cfg.SQL...) {
			engine := gen.Engine(e.Engine)
			if engine != gen.PostgreSQL && engine != gen.MySQL && engine != gen.SQLite {
				continue
			}
			files, err := sqlFiles(dir, e.schemaPaths())
			if err != nil || len(files) == 0 {
				continue
			}
			total++
			h := sha256.New()
			h.Write([]byte(engine))
			for _, f := range files {
				data, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					return err
				}
				fmt.Fprintf(h, "\x00%s\x00", filepath.Base(f))
				h.Write(data)
			}
			key := [32]byte(h.Sum(nil))
			if c := byKey[key]; c != nil {
				c.Uses++
				continue
			}
			c := &schemaCase{Engine: engine, Dir: dir, Files: files, Uses: 1}
			byKey[key] = c
			cases = append(cases, c)
		}
		return nil
	})
	return cases, total, err
}

// sqlFiles expands schema paths as sqlc does (internal/sql/sqlpath): globs
// and directories, keeping *.sql files that are neither hidden nor down
// migrations. The result is relative to dir.
func sqlFiles(dir string, patterns []string) ([]string, error) {
	var paths []string
	for _, p := range patterns {
		full := filepath.Join(dir, p)
		if strings.ContainsAny(p, "*?[]") {
			matches, err := filepath.Glob(full)
			if err != nil {
				return nil, err
			}
			paths = append(paths, matches...)
			continue
		}
		paths = append(paths, full)
	}
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		candidates := []string{p}
		if info.IsDir() {
			entries, err := os.ReadDir(p)
			if err != nil {
				return nil, err
			}
			candidates = candidates[:0]
			for _, e := range entries {
				candidates = append(candidates, filepath.Join(p, e.Name()))
			}
		}
		for _, f := range candidates {
			base := filepath.Base(f)
			if !strings.HasSuffix(base, ".sql") || strings.HasPrefix(base, ".") || strings.HasSuffix(base, ".down.sql") {
				continue
			}
			rel, err := filepath.Rel(dir, f)
			if err != nil {
				return nil, err
			}
			files = append(files, rel)
		}
	}
	return files, nil
}

// run prepares the case's directory (the schema files under their own
// relative paths, so fencegen's messages name them, plus fence.sql) and
// runs fencegen on it.
func (c *schemaCase) run(fencegen, work string) {
	dir := filepath.Join(work, c.ID)
	src := filepath.Join(dir, "src")
	tmp := filepath.Join(dir, "tmp")
	var sources []gen.Source
	args := []string{"-engine", string(c.Engine), "-out", filepath.Join("..", "out"), "-package", "db", "-no-version"}
	for i, f := range c.Files {
		data, err := os.ReadFile(filepath.Join(c.Dir, f))
		if err != nil {
			c.set("bad-error", err.Error())
			return
		}
		// Flatten "../schema.sql" so every copy stays under src.
		name := filepath.Join(fmt.Sprint(i), filepath.Base(f))
		if err := writeFile(filepath.Join(src, name), data); err != nil {
			c.set("bad-error", err.Error())
			return
		}
		sources = append(sources, gen.Source{Path: name, Data: data})
		args = append(args, "-schema", name)
	}
	if err := writeFile(filepath.Join(src, "fence.sql"), []byte(fenceAlters(c.Engine, sources))); err != nil {
		c.set("bad-error", err.Error())
		return
	}
	args = append(args, "-schema", "fence.sql")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		c.set("bad-error", err.Error())
		return
	}

	code, stderr, timedOut := runIn(src, tmp, 2*time.Minute, fencegen, nil, args...)
	switch {
	case timedOut:
		c.set("crash", "timed out")
	case code != 0 && code != 1 || strings.Contains(stderr, "panic:") || strings.Contains(stderr, "goroutine "):
		c.set("crash", fmt.Sprintf("exit %d: %s", code, stderr))
	case leftovers(tmp, filepath.Join(dir, "out")) != "":
		c.set("leaked", leftovers(tmp, filepath.Join(dir, "out")))
	case code == 0:
		c.set("ok", "") // until compileOutputs says otherwise
	default:
		c.classifyRefusal(fencegen, stderr, sources, src, tmp)
	}
}

// diagLine matches fencegen's "path:line:col: message".
var diagLine = regexp.MustCompile(`^(.+?):(\d+):(\d+): (.*)$`)

// classifyRefusal sorts an exit-1 run.
func (c *schemaCase) classifyRefusal(fencegen, stderr string, sources []gen.Source, src, tmp string) {
	files := map[string]bool{"fence.sql": true}
	for _, s := range sources {
		files[s.Path] = true
	}
	placed, fencing := true, true
	var first string
	sc := bufio.NewScanner(strings.NewReader(stderr))
	for sc.Scan() {
		line := sc.Text()
		m := diagLine.FindStringSubmatch(line)
		if m != nil && strings.HasPrefix(m[4], "warning: ") {
			continue
		}
		if first == "" {
			first = line
		}
		if strings.HasPrefix(line, "fencegen: no table has a fence column") {
			c.set("nothing", line)
			return
		}
		if m == nil || !files[m[1]] || strings.Contains(line, "fencegen bug") {
			placed = false
			continue
		}
		if !isFencingReason(m[4]) {
			fencing = false
		}
	}
	switch {
	case !placed:
		c.set("bad-error", first)
	case fencing:
		c.set("refused-reason", first)
	case sqlcAccepts(fencegen, c.Engine, src, tmp, sources):
		c.set("refused", first)
	default:
		c.set("sqlc-rejects", first)
	}
}

// isFencingReason tells a refusal fencegen owes the user (it cannot fence
// the table safely, or its names clash in Go) from one about the schema.
func isFencingReason(msg string) bool {
	for _, s := range []string{
		"no primary key or unique constraint",
		"gives no Go identifier",
		"both map to the Go name",
		"the fence must be a separate column",
		"unknown type",
	} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// sqlcAccepts runs sqlc (linked into fencegen) on the case's schema with
// fence.sql and one trivial query.
func sqlcAccepts(fencegen string, engine gen.Engine, src, tmp string, sources []gen.Source) bool {
	dir := filepath.Join(src, "..", "sqlc")
	schemas := []string{}
	for _, s := range sources {
		schemas = append(schemas, filepath.Join("..", "src", s.Path))
	}
	schemas = append(schemas, filepath.Join("..", "src", "fence.sql"))
	quoted := make([]string, len(schemas))
	for i, s := range schemas {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	cfg := fmt.Sprintf(`{"version":"2","sql":[{"engine":%q,"schema":[%s],"queries":["query.sql"],"gen":{"go":{"package":"db","out":"out"}}}]}`,
		engine, strings.Join(quoted, ","))
	if writeFile(filepath.Join(dir, "sqlc.json"), []byte(cfg)) != nil ||
		writeFile(filepath.Join(dir, "query.sql"), []byte("-- name: Ping :one\nSELECT 1;\n")) != nil {
		return false
	}
	code, _, _ := runIn(dir, tmp, 2*time.Minute, fencegen, []string{"FENCEGEN_RUN_SQLC=1"}, "generate", "--no-remote", "-f", "sqlc.json")
	return code == 0
}

// fenceAlters adds "fence bigint" to every table of the schema that lacks
// it, in the engine's dialect; empty if fencegen cannot parse the schema
// (its own run reports why).
func fenceAlters(engine gen.Engine, sources []gen.Source) string {
	schema, err := gen.ParseSchema(engine, sources)
	if err != nil {
		return ""
	}
	var text strings.Builder
	for _, s := range sources {
		text.Write(s.Data)
	}
	var b strings.Builder
	for _, t := range schema.Tables {
		if t.View || t.Column(gen.DefaultFence) != nil {
			continue
		}
		name := quoteName(engine, t.Name, text.String())
		if t.Schema != "" {
			name = quoteName(engine, t.Schema, text.String()) + "." + name
		}
		typ := "bigint"
		if engine == gen.SQLite {
			typ = "INTEGER"
		}
		fmt.Fprintf(&b, "ALTER TABLE %s ADD COLUMN fence %s;\n", name, typ)
	}
	return b.String()
}

// quoteName spells a name as the schema did: bare where it can be (sqlc
// folds bare SQLite names to lower case), quoted where the schema quoted it.
func quoteName(engine gen.Engine, name, schemaText string) string {
	if engine == gen.MySQL {
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	quoted := `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
	if strings.Contains(schemaText, quoted) || !isBareName(name) {
		return quoted
	}
	return name
}

var bareName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func isBareName(s string) bool { return bareName.MatchString(s) }

// runIn runs bin in dir with TMPDIR=tmp and returns its exit code and
// stderr.
func runIn(dir, tmp string, timeout time.Duration, bin string, env []string, args ...string) (code int, stderr string, timedOut bool) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "TMPDIR="+tmp), env...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		return -1, errb.String(), true
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), errb.String(), false
	}
	if err != nil {
		return -1, err.Error(), false
	}
	return 0, errb.String(), false
}

// leftovers names what fencegen left in tmp, or temporary files in out.
func leftovers(tmp, out string) string {
	var left []string
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		for _, e := range entries {
			left = append(left, filepath.Join(tmp, e.Name()))
		}
	}
	filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".fencegen-") {
			left = append(left, path)
		}
		return nil
	})
	return strings.Join(left, " ")
}

func (c *schemaCase) set(outcome, detail string) {
	c.Outcome = outcome
	if i := strings.IndexByte(detail, '\n'); i >= 0 {
		detail = detail[:i]
	}
	c.Detail = detail
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// compileOutputs builds every written package in one throwaway module and
// marks the cases whose package fails.
func compileOutputs(work string, cases []*schemaCase) error {
	mod := filepath.Join(work, "build")
	if err := os.RemoveAll(mod); err != nil {
		return err
	}
	byPkg := map[string]*schemaCase{}
	for _, c := range cases {
		if c.Outcome != "ok" {
			continue
		}
		if err := os.CopyFS(filepath.Join(mod, c.ID), os.DirFS(filepath.Join(work, c.ID, "out"))); err != nil {
			return err
		}
		byPkg["sweep/"+c.ID] = c
	}
	if len(byPkg) == 0 {
		return nil
	}
	if err := writeFile(filepath.Join(mod, "go.mod"), []byte("module sweep\n\ngo 1.24\n")); err != nil {
		return err
	}
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = mod
	if out, err := tidy.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod tidy in %s: %v\n%s", mod, err, out)
	}
	build := exec.Command("go", "build", "./...")
	build.Dir = mod
	out, _ := build.CombinedOutput()
	var current *schemaCase
	for _, line := range strings.Split(string(out), "\n") {
		if pkg, ok := strings.CutPrefix(line, "# "); ok {
			current = byPkg[pkg]
			if current != nil {
				current.set("compile", "")
			}
			continue
		}
		if current != nil && current.Detail == "" {
			current.Detail = strings.TrimSpace(line)
		}
	}
	return nil
}

// outcomes in report order.
var outcomes = []string{"ok", "refused-reason", "nothing", "refused", "sqlc-rejects", "bad-error", "crash", "compile", "leaked"}

func report(cases []*schemaCase, verbose bool) {
	count := map[gen.Engine]map[string]int{}
	for _, c := range cases {
		if count[c.Engine] == nil {
			count[c.Engine] = map[string]int{}
		}
		count[c.Engine][c.Outcome]++
	}
	fmt.Printf("\n%-11s", "engine")
	for _, o := range outcomes {
		fmt.Printf(" %14s", o)
	}
	fmt.Println()
	for _, e := range []gen.Engine{gen.PostgreSQL, gen.MySQL, gen.SQLite} {
		fmt.Printf("%-11s", e)
		for _, o := range outcomes {
			fmt.Printf(" %14d", count[e][o])
		}
		fmt.Println()
	}
	sort.SliceStable(cases, func(i, j int) bool { return cases[i].Outcome < cases[j].Outcome })
	for _, c := range cases {
		switch c.Outcome {
		case "ok", "refused-reason", "nothing", "sqlc-rejects":
			if !verbose || c.Outcome != "sqlc-rejects" {
				continue
			}
		}
		fmt.Printf("%-14s %s %s (%s): %s\n", c.Outcome, c.ID, c.Dir, c.Engine, c.Detail)
	}
}
