package sqlscan_test

import (
	"fmt"
	"testing"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// TestIdempotentShapes checks the shapes the lease model's idempotence
// rules read, each with a twin that must not match.
func TestIdempotentShapes(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        string // Conflict, Versions and Expiry, rendered
	}{
		{"on conflict do nothing", "INSERT INTO runs (id, state) VALUES ($1, 'new') ON CONFLICT (id) DO NOTHING", "X[DO NOTHING]"},
		{"insert ignore", "INSERT IGNORE INTO runs (id, state) VALUES (?, 'new')", "X[IGNORE]"},
		{"not exists same key", "INSERT INTO runs (id, state) SELECT $1, 'new' WHERE NOT EXISTS (SELECT 1 FROM runs WHERE id = $1)", "X[NOT EXISTS]"},
		{"not exists qualified", "INSERT INTO app.runs (id, owner) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM app.runs r WHERE r.id = $1 AND r.owner = $2)", "X[NOT EXISTS]"},
		{"not exists other key", "INSERT INTO runs (id, state) SELECT $1, 'new' WHERE NOT EXISTS (SELECT 1 FROM runs WHERE state = 'running')", "X[]"},
		{"not exists other table", "INSERT INTO runs (id, state) SELECT $1, 'new' WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE id = $1)", "X[]"},
		{"not exists ORed", "INSERT INTO runs (id, state) SELECT $1, 'new' WHERE $2 OR NOT EXISTS (SELECT 1 FROM runs WHERE id = $1)", "X[]"},
		{"version bump", "UPDATE docs SET body = $3, version = version + 1 WHERE id = $1 AND version = $2", "V[version=$2]"},
		{"version bump reversed", "UPDATE docs SET body = ?, version = 1 + version WHERE version = ? AND id = ?", "V[version=?#2]"},
		{"version compared, not bumped", "UPDATE docs SET body = $3 WHERE id = $1 AND version = $2", "X[]"},
		{"version bumped, not compared", "UPDATE docs SET body = $2, version = version + 1 WHERE id = $1", "X[]"},
		{"version ORed", "UPDATE docs SET version = version + 1 WHERE id = $1 OR version = $2", "X[]"},
		{"expired rows", "DELETE FROM sessions WHERE expires_at < now()", "E[]"},
		{"old rows", "DELETE FROM events WHERE created_at <= now() - interval '30 days' AND delivered_at < CURRENT_TIMESTAMP", "E[]"},
		{"expired before a parameter", "DELETE FROM sessions WHERE expires_at < $1", "E[$1]"},
		{"reversed", "DELETE FROM sessions WHERE now() > expires_at", "E[]"},
		{"sqlite now", "DELETE FROM sessions WHERE expires_at < datetime('now')", "E[]"},
		{"by key", "DELETE FROM sessions WHERE id = $1", "X[]"},
		{"by age and key", "DELETE FROM sessions WHERE id = $1 AND expires_at < now()", "X[]"},
		{"future rows", "DELETE FROM sessions WHERE expires_at > now()", "X[]"},
		{"age ORed", "DELETE FROM sessions WHERE expires_at < now() OR owner = $1", "X[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sqlscan.Parse(tc.query)
			if s.Unknown || len(s.Statements) != 1 {
				t.Fatalf("unknown or not one statement: %s", scriptSummary(s))
			}
			if got := idemSummary(s.Statements[0]); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func idemSummary(st sqlscan.Statement) string {
	switch {
	case len(st.Versions) > 0:
		v := st.Versions[0]
		return fmt.Sprintf("V[%s=%s]", v.Column, param(v.Token))
	case st.Expiry:
		s := "E["
		for i, p := range st.AgeParams {
			if i > 0 {
				s += " "
			}
			s += param(p)
		}
		return s + "]"
	}
	return "X[" + st.Conflict + "]"
}
