package gen

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchSchema generates a schema of n fenced tables of mixed shapes in
// the engine's dialect: single and composite keys, nullable and NOT NULL
// fences, a few column types each.
func benchSchema(engine Engine, n int) string {
	shapes := map[Engine][3]string{
		PostgreSQL: {
			"CREATE TABLE t%03d (id bigint PRIMARY KEY, name text NOT NULL, payload jsonb, updated_at timestamptz NOT NULL DEFAULT now(), fence bigint);\n",
			"CREATE TABLE t%03d (tenant text NOT NULL, id bigint NOT NULL, amount numeric NOT NULL, note text, fence bigint NOT NULL, PRIMARY KEY (tenant, id));\n",
			"CREATE TABLE t%03d (key uuid NOT NULL, value text NOT NULL, version int NOT NULL, fence bigint, UNIQUE (key));\n",
		},
		MySQL: {
			"CREATE TABLE t%03d (id bigint PRIMARY KEY, name text NOT NULL, payload json, updated_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, fence bigint);\n",
			"CREATE TABLE t%03d (tenant varchar(64) NOT NULL, id bigint NOT NULL, amount decimal(20,4) NOT NULL, note text, fence bigint NOT NULL, PRIMARY KEY (tenant, id));\n",
			"CREATE TABLE t%03d (k char(36) NOT NULL, value text NOT NULL, version int NOT NULL, fence bigint, UNIQUE (k));\n",
		},
		SQLite: {
			"CREATE TABLE t%03d (id integer PRIMARY KEY, name text NOT NULL, payload blob, updated_at datetime NOT NULL DEFAULT CURRENT_TIMESTAMP, fence integer);\n",
			"CREATE TABLE t%03d (tenant text NOT NULL, id integer NOT NULL, amount real NOT NULL, note text, fence integer NOT NULL, PRIMARY KEY (tenant, id));\n",
			"CREATE TABLE t%03d (k text NOT NULL, value text NOT NULL, version integer NOT NULL, fence integer, UNIQUE (k));\n",
		},
	}[engine]
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, shapes[i%3], i)
	}
	return b.String()
}

// benchGenerateEnv, set to a directory, makes the test binary run
// fencegen's Generate on that directory's bench.json and write the files,
// as the fencegen command would, instead of the tests.
const benchGenerateEnv = "FENCEGEN_BENCH_GENERATE"

func TestMain(m *testing.M) {
	if dir := os.Getenv(benchGenerateEnv); dir != "" {
		if err := benchGenerate(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// benchCase is what bench.json holds for a benchmark's fencegen process.
type benchCase struct {
	Engine Engine
	Schema string
}

func benchGenerate(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, "bench.json"))
	if err != nil {
		return err
	}
	var c benchCase
	if err := json.Unmarshal(data, &c); err != nil {
		return err
	}
	schema, err := os.ReadFile(filepath.Join(dir, c.Schema))
	if err != nil {
		return err
	}
	res, err := Generate(Options{Engine: c.Engine, Schemas: []Source{{Path: c.Schema, Data: schema}}, Package: "db"})
	if err != nil {
		return err
	}
	for name, data := range res.Files {
		if err := writeFile(filepath.Join(dir, "fencegen-out", name), data); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkGenerate500Tables compares fencegen with `sqlc generate` on a
// 500-table schema, per engine: in every iteration one fencegen process
// generates the fenced package (it runs sqlc itself, in its child process),
// and one sqlc process runs `sqlc generate` on the same schema and the same
// fenced queries. Both are fresh processes of this test binary (sqlc being
// the one fencegen links), as a user runs them, started one after the
// other in alternating order, so that a change in the machine's load
// weighs on both. It reports the median CPU time of each (user+system of
// the process and its children: on a busy machine wall time mostly
// measures waiting for a core), the median of the iterations' CPU ratios
// and the ratio of the summed wall times; the issue aims at a CPU ratio
// <= 1.3. Run it with -benchtime 10x or more: one run of either side
// varies by a fifth.
func BenchmarkGenerate500Tables(b *testing.B) {
	for _, engine := range []Engine{PostgreSQL, MySQL, SQLite} {
		b.Run(string(engine), func(b *testing.B) {
			dir := prepareBench(b, engine)
			exe, err := os.Executable()
			if err != nil {
				b.Fatal(err)
			}
			runFencegen := func() run {
				return measure(b, exec.Command(exe), dir, benchGenerateEnv+"="+dir)
			}
			runSQLC := func() run {
				return measure(b, exec.Command(exe, "generate", "--no-remote", "-f", "sqlc.json"), dir, sqlcChildEnv+"=1")
			}
			var fencegen, sqlcGen []run
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 {
					fencegen = append(fencegen, runFencegen())
					sqlcGen = append(sqlcGen, runSQLC())
				} else {
					sqlcGen = append(sqlcGen, runSQLC())
					fencegen = append(fencegen, runFencegen())
				}
			}
			ratios := make([]float64, len(fencegen))
			var fencegenWall, sqlcWall time.Duration
			for i := range fencegen {
				ratios[i] = float64(fencegen[i].cpu) / float64(sqlcGen[i].cpu)
				fencegenWall += fencegen[i].wall
				sqlcWall += sqlcGen[i].wall
			}
			b.ReportMetric(median(cpuTimes(fencegen)), "fencegen-cpu-s")
			b.ReportMetric(median(cpuTimes(sqlcGen)), "sqlc-cpu-s")
			b.ReportMetric(median(ratios), "cpu-fencegen/sqlc")
			b.ReportMetric(float64(fencegenWall)/float64(sqlcWall), "wall-fencegen/sqlc")
		})
	}
}

// run is the cost of one process.
type run struct {
	wall, cpu time.Duration
}

// measure runs cmd in dir with env added and returns its cost: the CPU
// time is the process's and that of every process it waited for
// (fencegen's child).
func measure(b *testing.B, cmd *exec.Cmd, dir string, env string) run {
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(start)
	if err != nil {
		b.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		b.Fatal("no rusage")
	}
	return run{wall: wall, cpu: time.Duration(ru.Utime.Nano() + ru.Stime.Nano())}
}

// cpuTimes lists the runs' CPU times in seconds.
func cpuTimes(runs []run) []float64 {
	out := make([]float64, len(runs))
	for i, r := range runs {
		out[i] = r.cpu.Seconds()
	}
	return out
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

// prepareBench writes the schema, the fenced queries fencegen would hand
// sqlc and sqlc's configuration for them to a temporary directory.
func prepareBench(b *testing.B, engine Engine) string {
	b.Helper()
	schemaSQL := benchSchema(engine, 500)
	schema, err := ParseSchema(engine, []Source{{Path: "schema.sql", Data: []byte(schemaSQL)}})
	if err != nil {
		b.Fatal(err)
	}
	tables, _, err := selectFenced(schema, DefaultFence, nil)
	if err != nil {
		b.Fatal(err)
	}
	cfg := sqlcSQL{Engine: engine, Schema: []string{"schema.sql"}, Queries: []string{"fenced.sql"}}
	cfg.Gen.Go = sqlcGo{Package: "db", Out: "sqlc-out"}
	if engine == PostgreSQL {
		cfg.Gen.Go.SQLPackage = string(DriverPgx)
	}
	conf, err := json.Marshal(sqlcConfig{Version: "2", SQL: []sqlcSQL{cfg}})
	if err != nil {
		b.Fatal(err)
	}
	bench, _ := json.Marshal(benchCase{Engine: engine, Schema: "schema.sql"})
	dir := b.TempDir()
	files := map[string]string{
		"schema.sql": schemaSQL,
		"fenced.sql": renderFencedSQL(engine, CompareLE, tables, tokenSources{}),
		"sqlc.json":  string(conf),
		"bench.json": string(bench),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}
