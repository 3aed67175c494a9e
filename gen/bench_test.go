package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	sqlc "github.com/sqlc-dev/sqlc/pkg/cli"
)

// benchSchema generates a PostgreSQL schema of n fenced tables of mixed
// shapes: single and composite keys, nullable and NOT NULL fences, a few
// column types each.
func benchSchema(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "CREATE TABLE t%03d (id bigint PRIMARY KEY, name text NOT NULL, payload jsonb, updated_at timestamptz NOT NULL DEFAULT now(), fence bigint);\n", i)
		case 1:
			fmt.Fprintf(&b, "CREATE TABLE t%03d (tenant text NOT NULL, id bigint NOT NULL, amount numeric NOT NULL, note text, fence bigint NOT NULL, PRIMARY KEY (tenant, id));\n", i)
		default:
			fmt.Fprintf(&b, "CREATE TABLE t%03d (key uuid NOT NULL, value text NOT NULL, version int NOT NULL, fence bigint, UNIQUE (key));\n", i)
		}
	}
	return b.String()
}

// BenchmarkGenerate500Tables compares fencegen's Generate on a 500-table
// schema with `sqlc generate` on the same schema and the same fenced
// queries, alternating the two in every iteration, and reports the ratio
// (fencegen time / sqlc time; the issue aims at <= 1.3).
func BenchmarkGenerate500Tables(b *testing.B) {
	schema := []Source{{Path: "schema.sql", Data: []byte(benchSchema(500))}}
	opts := Options{Engine: PostgreSQL, Schemas: schema, Package: "db"}
	sqlcDir := prepareSQLCRun(b, opts)

	var fencegen, sqlcGen cost
	for b.Loop() {
		fencegen.add(func() {
			if _, err := Generate(opts); err != nil {
				b.Fatal(err)
			}
		})
		sqlcGen.add(func() {
			if code := sqlc.Run([]string{"generate", "--no-remote", "-f", filepath.Join(sqlcDir, "sqlc.json")}); code != 0 {
				b.Fatalf("sqlc generate exit %d", code)
			}
		})
	}
	b.ReportMetric(float64(fencegen.wall.Nanoseconds())/float64(b.N), "fencegen-ns/op")
	b.ReportMetric(float64(sqlcGen.wall.Nanoseconds())/float64(b.N), "sqlc-ns/op")
	b.ReportMetric(float64(fencegen.wall)/float64(sqlcGen.wall), "wall-fencegen/sqlc")
	b.ReportMetric(float64(fencegen.cpu)/float64(sqlcGen.cpu), "cpu-fencegen/sqlc")
}

// cost accumulates the wall-clock and process CPU time of runs. CPU time
// (user+system, all threads) keeps the ratio meaningful on a busy machine,
// where wall time mostly measures waiting for a core.
type cost struct {
	wall, cpu time.Duration
}

func (c *cost) add(run func()) {
	cpu0, wall0 := processCPU(), time.Now()
	run()
	c.wall += time.Since(wall0)
	c.cpu += processCPU() - cpu0
}

// processCPU is the CPU time of this process and its finished children
// (Generate runs sqlc in a child process).
func processCPU() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			return 0
		}
		total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return total
}

// prepareSQLCRun writes the sqlc project fencegen would run (schema, fenced
// queries, config) to a temporary directory for plain `sqlc generate`.
func prepareSQLCRun(b *testing.B, opts Options) string {
	b.Helper()
	schema, err := ParseSchema(opts.Engine, opts.Schemas)
	if err != nil {
		b.Fatal(err)
	}
	tables, _, err := selectFenced(schema, DefaultFence, nil)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	queries := renderFencedSQL(opts.Engine, CompareLE, tables, tokenSources{})
	files := map[string]string{
		"schema.sql": string(opts.Schemas[0].Data),
		"fenced.sql": queries,
		"sqlc.json":  `{"version":"2","sql":[{"engine":"postgresql","schema":["schema.sql"],"queries":["fenced.sql"],"gen":{"go":{"package":"db","out":"out","sql_package":"pgx/v5","query_parameter_limit":0}}}]}`,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}
