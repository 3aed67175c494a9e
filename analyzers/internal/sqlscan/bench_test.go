package sqlscan_test

import (
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// benchQueries are the shapes the analyzer meets: short sqlc queries,
// upserts, MySQL text that needs both readings, and a long migration.
func benchQueries() map[string]string {
	var migration strings.Builder
	for i := 0; i < 100; i++ {
		migration.WriteString("-- step\nCREATE TABLE IF NOT EXISTS t (id bigint PRIMARY KEY, body text, fence bigint);\n")
		migration.WriteString("INSERT INTO t (id, body, fence) VALUES ($1, 'it''s /* not */ a comment', $2) ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body WHERE t.fence < EXCLUDED.fence;\n")
	}
	return map[string]string{
		"sqlc":      "-- name: UpdateDoc :execrows\nUPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2",
		"upsert":    `INSERT INTO settings (key, value, fence) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, fence = EXCLUDED.fence WHERE settings.fence < EXCLUDED.fence RETURNING key`,
		"mysql":     `INSERT INTO t (k, v, fence) VALUES (?, 'a\'b', ?) ON DUPLICATE KEY UPDATE v = IF(fence < VALUES(fence), VALUES(v), v) # done`,
		"migration": migration.String(),
		"nested":    "SELECT " + strings.Repeat("now(", 5000) + "$1" + strings.Repeat(")", 5000) + " WHERE " + strings.Repeat("(", 5000) + "fence < $2" + strings.Repeat(")", 5000),
	}
}

func BenchmarkParse(b *testing.B) {
	for name, q := range benchQueries() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(q)))
			b.ReportAllocs()
			for b.Loop() {
				sqlscan.Parse(q)
			}
		})
	}
}
