package sqlscan_test

import (
	"fmt"
	"strings"
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
		{"next version passed in", "UPDATE pullreqs SET pullreq_version = :pullreq_version, pullreq_title = :pullreq_title WHERE pullreq_id = :pullreq_id AND pullreq_version = :pullreq_version - 1", "V[pullreq_version=:pullreq_version]"},
		{"next version computed", "UPDATE docs SET body = $2, version = $3 + 1 WHERE id = $1 AND version = $3", "V[version=$3]"},
		{"next version, reversed", "UPDATE docs SET version = 1 + $2 WHERE $2 = version AND id = $1", "V[version=$2]"},
		{"next version, other placeholders", "UPDATE docs SET version = ? + 1 WHERE id = ? AND version = ?", "X[]"},
		{"version passed in, not moved", "UPDATE docs SET version = :version WHERE id = :id AND version = :version", "X[]"},
		{"version passed in, moved back", "UPDATE docs SET version = :version - 1 WHERE id = :id AND version = :version", "X[]"},
		{"other version passed in", "UPDATE docs SET version = $3 WHERE id = $1 AND version = $2 - 1", "X[]"},
		{"version passed in, ORed", "UPDATE docs SET version = :version WHERE id = :id OR version = :version - 1", "X[]"},
		{"expired rows", "DELETE FROM sessions WHERE expires_at < now()", "E[]"},
		{"old rows", "DELETE FROM events WHERE created_at <= now() - interval '30 days' AND delivered_at < CURRENT_TIMESTAMP", "E[]"},
		{"expired before a parameter", "DELETE FROM sessions WHERE expires_at < $1", "E[$1]"},
		{"reversed", "DELETE FROM sessions WHERE now() > expires_at", "E[]"},
		{"sqlite now", "DELETE FROM sessions WHERE expires_at < datetime('now')", "E[]"},
		{"by key", "DELETE FROM sessions WHERE id = $1", "X[]"},
		{"by age and key", "DELETE FROM sessions WHERE id = $1 AND expires_at < now()", "E[]"},
		{"by age, set, and key", "DELETE FROM _idempotency_keys WHERE key = $1 AND expires_at IS NOT NULL AND expires_at < NOW()", "E[]"},
		{"before a parameter, by keys", "DELETE FROM jobs WHERE queue = 'mail' AND id = ? AND finished_at < ?", "E[?#2]"},
		{"by key, not set", "DELETE FROM sessions WHERE id = $1 AND expires_at IS NOT NULL", "X[]"},
		{"by keys", "DELETE FROM sessions WHERE id = $1 AND owner = $2", "X[]"},
		{"by age and a range of keys", "DELETE FROM sessions WHERE id > $1 AND expires_at < now()", "X[]"},
		{"by age and a key ORed", "DELETE FROM sessions WHERE id = $1 OR expires_at < now()", "X[]"},
		{"future rows", "DELETE FROM sessions WHERE expires_at > now()", "X[]"},
		{"age ORed", "DELETE FROM sessions WHERE expires_at < now() OR owner = $1", "X[]"},
		{"by age in parentheses", "DELETE FROM sessions WHERE (expires_at < $1 AND created_at < now())", "E[$1]"},
		{"age behind a WITH query", "WITH rows AS (SELECT id FROM tuples WHERE deleted_xid < $1 LIMIT 1000) DELETE FROM tuples WHERE (id) IN (SELECT id FROM rows)", "E[$1]"},
		{"age behind a WITH query, keys", "WITH rows AS (SELECT ns, id FROM tuples t WHERE t.expires_at < now() ORDER BY t.expires_at LIMIT 10) DELETE FROM tuples WHERE (ns, id) IN (SELECT ns, id FROM rows)", "E[]"},
		{"age in a subquery", "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at < $1 LIMIT 100)", "E[$1]"},
		{"age in a subquery and here", "DELETE FROM jobs WHERE finished_at < $2 AND run_id IN (SELECT id FROM runs WHERE ended_at < $1)", "E[$2 $1]"},
		{"key behind a WITH query", "WITH rows AS (SELECT id FROM tuples WHERE owner = $1 LIMIT 1000) DELETE FROM tuples WHERE (id) IN (SELECT id FROM rows)", "X[]"},
		{"key in a subquery", "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE owner = $1)", "X[]"},
		{"not in a subquery by age", "DELETE FROM sessions WHERE id NOT IN (SELECT id FROM sessions WHERE expires_at < now())", "X[]"},
		{"every row of a WITH query", "WITH rows AS (SELECT id FROM tuples LIMIT 1000) DELETE FROM tuples WHERE id IN (SELECT id FROM rows)", "X[]"},
		{"every row of a table", "DELETE FROM tuples WHERE id IN (SELECT id FROM doomed)", "X[]"},
		{"subquery joins", "DELETE FROM tuples WHERE id IN (SELECT t.id FROM tuples t JOIN owners o ON o.id = t.owner WHERE t.expires_at < now())", "X[]"},
		{"subquery unions", "DELETE FROM tuples WHERE id IN (SELECT id FROM a WHERE expires_at < now() UNION SELECT id FROM b)", "X[]"},
		{"soft delete by age", "UPDATE jobs SET deleted_at = now() WHERE deleted_at IS NULL AND finished_at < $1", "E[$1]"},
		{"soft delete by age, stamp bound", `UPDATE "jobs" AS "j" SET "deleted_at" = ? WHERE (finished_at < now() - interval '7 days') AND "j"."deleted_at" IS NULL`, "E[?#1]"},
		{"soft delete by key", "UPDATE jobs SET deleted_at = now() WHERE deleted_at IS NULL AND id = $1", "X[]"},
		{"soft delete of every row", "UPDATE jobs SET deleted_at = now() WHERE deleted_at IS NULL", "X[]"},
		{"soft delete restamps", "UPDATE jobs SET deleted_at = now() WHERE finished_at < $1", "X[]"},
		{"other column tested for NULL", "UPDATE jobs SET deleted_at = now() WHERE archived_at IS NULL AND finished_at < $1", "X[]"},
		{"stamp and another column", "UPDATE jobs SET deleted_at = now(), state = 'gone' WHERE deleted_at IS NULL AND finished_at < $1", "X[]"},
		{"state set by age", "UPDATE jobs SET state = 'expired' WHERE state IS NULL AND finished_at < $1", "X[]"},
		{"age and key in a WITH query", "WITH rows AS (SELECT id FROM tuples WHERE deleted_xid < $1 AND owner = $2) DELETE FROM tuples WHERE id IN (SELECT id FROM rows)", "X[]"},
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

// TestTransitions checks the state transitions read from UPDATEs, each
// with twins that are none.
func TestTransitions(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        string // column:to<-from,from[:alone], or "-"
	}{
		{"squirrel's IN and OR", "UPDATE volumes SET state = ? WHERE (id = ? AND (state = ? OR state = ?))", "state:?#1<-?#3,?#4:alone:keyed"},
		{"literals", "UPDATE containers SET state = 'created' WHERE id = $1 AND state IN ('creating', 'created')", "state:'created'<-'creating','created':alone:keyed"},
		{"one state, more columns", "UPDATE jobs SET state = 'running', worker = $2 WHERE id = $1 AND state = 'pending'", "state:'running'<-'pending':keyed"},
		{"value first", "UPDATE jobs SET status = 'done' WHERE 'running' = status AND id IN ($1, $2)", "status:'done'<-'running':alone:keyed"},
		{"every row in the state", "UPDATE payouts SET state = 'sent' WHERE state = 'approved'", "state:'sent'<-'approved':alone"},
		{"rows by age in the state", "UPDATE jobs SET state = 'new' WHERE state = 'taken' AND taken_at < now() - interval '5 minutes'", "state:'new'<-'taken':alone:aged"},
		{"rows older than a bound", "UPDATE node_info SET status = $1 WHERE last_heartbeat < $2 AND status = $3", "status:$1<-$3:alone:aged,$2"},
		{"aged and keyed", "UPDATE jobs SET state = 'new' WHERE region = $1 AND state = 'taken' AND taken_at < $2", "state:'new'<-'taken':alone:keyed"},
		{"aged and more", "UPDATE jobs SET state = 'new' WHERE state = 'taken' AND taken_at < $1 AND attempts > 3", "state:'new'<-'taken':alone"},
		{"no state condition", "UPDATE jobs SET state = 'done' WHERE id = $1", "-"},
		{"other column compared", "UPDATE jobs SET result = $2 WHERE id = $1 AND state = 'running'", "-"},
		{"not in", "UPDATE jobs SET state = 'running' WHERE id = $1 AND state NOT IN ('done', 'failed')", "-"},
		{"not equal", "UPDATE jobs SET state = 'running' WHERE id = $1 AND state <> 'done'", "-"},
		{"ORed with another column", "UPDATE jobs SET state = 'running' WHERE id = $1 AND (state = 'pending' OR owner = $2)", "-"},
		{"top-level OR", "UPDATE jobs SET state = 'running' WHERE id = $1 OR state = 'pending'", "-"},
		{"subquery", "UPDATE jobs SET state = 'running' WHERE id = $1 AND state IN (SELECT s FROM runnable)", "-"},
		{"expression set", "UPDATE jobs SET state = lower($2) WHERE id = $1 AND state = 'pending'", "-"},
		{"stamped", "UPDATE service SET status = 'AVAILABLE', updated_at = NOW() WHERE id = $1 AND status = $2", "status:'AVAILABLE'<-$2:keyed:stamps"},
		{"stamped by a bare clock", "UPDATE service SET updated_at = CURRENT_TIMESTAMP, status = 'AVAILABLE' WHERE id = $1 AND status = $2", "status:'AVAILABLE'<-$2:keyed:stamps"},
		{"stamped with a time passed in", "UPDATE service SET status = 'AVAILABLE', updated_at = $3 WHERE id = $1 AND status = $2", "status:'AVAILABLE'<-$2:keyed"},
		{"stamped and more", "UPDATE service SET status = 'AVAILABLE', updated_at = now(), note = 'ok' WHERE id = $1 AND status = $2", "status:'AVAILABLE'<-$2:keyed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sqlscan.Parse(tc.query)
			if s.Unknown || len(s.Statements) != 1 {
				t.Fatalf("unknown or not one statement: %s", scriptSummary(s))
			}
			if got := transitionSummary(s.Statements[0].Transition); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func transitionSummary(tr *sqlscan.Transition) string {
	if tr == nil {
		return "-"
	}
	op := func(o sqlscan.Operand) string {
		if o.Literal != "" {
			return o.Literal
		}
		return param(o.Param)
	}
	s := tr.Column + ":" + op(tr.To) + "<-"
	for i, f := range tr.From {
		if i > 0 {
			s += ","
		}
		s += op(f)
	}
	if tr.Alone {
		s += ":alone"
	}
	if tr.Keyed {
		s += ":keyed"
	}
	if tr.Stamps {
		s += ":stamps"
	}
	if tr.Aged {
		s += ":aged"
		for _, p := range tr.AgeParams {
			s += "," + p.String()
		}
	}
	return s
}

// TestConvergingUpserts checks the upserts whose DO UPDATE applies only
// where the row differs from the values inserted.
func TestConvergingUpserts(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        string // Converges and Differs, rendered
	}{
		{"named, qualified", `INSERT INTO jobs (job_uid, job_type, job_cron, job_state) VALUES (:job_uid, :job_type, :job_cron, :job_state)
			ON CONFLICT (job_uid) DO UPDATE SET job_type = :job_type, job_cron = :job_cron, job_state = :job_state
			WHERE jobs.job_type <> :job_type OR jobs.job_cron <> :job_cron`, "true [:job_type :job_cron]"},
		{"excluded, distinct", "INSERT INTO defs (k, body, prio) VALUES ($1, $2, 3) ON CONFLICT (k) DO UPDATE SET body = EXCLUDED.body WHERE defs.body IS DISTINCT FROM EXCLUDED.body OR EXCLUDED.prio <> defs.prio", "true [$2]"},
		{"another placeholder", "INSERT INTO defs (k, body) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET body = $2 WHERE defs.body <> $3", "false []"},
		{"ANDed", "INSERT INTO defs (k, body, v) VALUES ($1, $2, $3) ON CONFLICT (k) DO UPDATE SET body = $2 WHERE defs.body <> $2 AND defs.v < $3", "false []"},
		{"another column", "INSERT INTO defs (k, body, v) VALUES ($1, $2, $3) ON CONFLICT (k) DO UPDATE SET body = $2 WHERE defs.v <> EXCLUDED.body", "false []"},
		{"no where", "INSERT INTO defs (k, body) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET body = $2", "false []"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := sqlscan.ParseDialect(tc.query, sqlscan.PostgreSQL).Statements[0]
			var ps []string
			for _, p := range st.Differs {
				ps = append(ps, p.String())
			}
			if got := fmt.Sprintf("%v %v", st.Converges, ps); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestDerived checks the set-based UPDATEs that derive their rows and
// values from other tables, each with twins that carry the writer's values
// or select rows by the target's state alone.
func TestDerived(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        bool
	}{
		{"MySQL join", `UPDATE workers JOIN ip_addresses ON workers.id = ip_addresses.worker_id
			SET workers.active = TRUE, workers.notified = FALSE
			WHERE ip_addresses.active = TRUE AND workers.active = FALSE;`, true},
		{"PostgreSQL FROM", "UPDATE jobs j SET status = 'orphaned', updated_at = now() FROM workers w WHERE j.worker_id = w.id AND w.dead AND j.status = 'running'", true},
		{"another table's column set", "UPDATE jobs SET jobs.owner = w.name FROM workers w WHERE jobs.worker_id = w.id AND w.renamed = 1", true},
		{"a bound value", "UPDATE workers JOIN ip_addresses ON workers.id = ip_addresses.worker_id SET workers.active = ? WHERE ip_addresses.active = TRUE", false},
		{"a bound filter", "UPDATE workers JOIN ip_addresses ON workers.id = ip_addresses.worker_id SET workers.active = TRUE WHERE ip_addresses.miner_id = ?", false},
		{"relative", "UPDATE balances JOIN credits ON balances.id = credits.balance_id SET balances.value = balances.value + credits.value WHERE credits.applied = FALSE", false},
		{"own column unqualified", "UPDATE jobs SET status = status FROM workers w WHERE jobs.worker_id = w.id AND w.dead", false},
		{"joined but filtered by the target only", "UPDATE jobs j JOIN batches b ON j.batch_id = b.id SET j.status = 'queued' WHERE j.status = 'running'", false},
		{"join condition alone", "UPDATE jobs SET status = 'orphaned' FROM workers w WHERE jobs.worker_id = w.id", false},
		{"unqualified filter", "UPDATE jobs SET status = 'orphaned' FROM workers w WHERE jobs.worker_id = w.id AND dead", false},
		{"one table", "UPDATE payouts SET state = 'sent' WHERE state = 'approved'", false},
		{"top-level OR", "UPDATE jobs SET status = 'orphaned' FROM workers w WHERE w.dead OR jobs.worker_id = w.id", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sqlscan.Parse(tc.query)
			if s.Unknown || len(s.Statements) != 1 {
				t.Fatalf("unknown or not one statement: %s", scriptSummary(s))
			}
			if got := s.Statements[0].Derived; got != tc.want {
				t.Errorf("Derived = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestReset checks the UPDATEs of every row to constants, each with twins
// that pick rows, bind a value or set from the row or the clock.
func TestReset(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        bool
	}{
		{"counters", "UPDATE users SET usage_count = 0, sms_count = 0", true},
		{"quoted", `UPDATE "users" SET "Usage.SMSCount" = 0, "Usage.Calls" = 0.0`, true},
		{"other constants", `UPDATE jobs SET owner = NULL`, false},
		{"a flag", `UPDATE accounts SET interest_paid = true`, false},
		{"a count", `UPDATE users SET usage_count = 10`, false},
		{"a WHERE clause", "UPDATE users SET usage_count = 0 WHERE id = 1", false},
		{"a bound value", "UPDATE users SET usage_count = $1", false},
		{"the clock", "UPDATE collections SET synced = now()", false},
		{"own value", "UPDATE counters SET n = n + 1", false},
		{"joined", "UPDATE users SET usage_count = 0 FROM plans WHERE plans.free", false},
		{"limited", "UPDATE users SET usage_count = 0 LIMIT 10", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sqlscan.Parse(tc.query)
			if s.Unknown || len(s.Statements) != 1 {
				t.Fatalf("unknown or not one statement: %s", scriptSummary(s))
			}
			if got := s.Statements[0].Reset; got != tc.want {
				t.Errorf("Reset = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestBounds checks the bounded decrements of UPDATEs, each with twins
// that add, set, bound another column or OR the bound away.
func TestBounds(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        string // column:amount>=floor, space-separated
	}{
		{"bounded", "UPDATE inventory SET stocks = stocks - ? WHERE goods = ? AND stocks >= ?", "stocks:?#1>=?#3"},
		{"parenthesized, as GORM writes it", "UPDATE inventories SET stocks = stocks - ? WHERE (goods = ?) AND (stocks >= ?)", "stocks:?#1>=?#3"},
		{"quoted, reversed floor", "UPDATE `inventory` SET `stocks` = `stocks` - $1 WHERE $1 <= stocks AND goods = $2", "stocks:$1>=$1"},
		{"two columns", "UPDATE accounts SET avail = avail - $1, held = held - $2 WHERE id = $3 AND avail >= $1 AND held >= $2", "avail:$1>=$1 held:$2>=$2"},
		{"one column unbounded", "UPDATE accounts SET avail = avail - $1, held = held - $2 WHERE id = $3 AND avail >= $1", ""},
		{"no floor", "UPDATE inventory SET stocks = stocks - ? WHERE goods = ?", ""},
		{"other column's floor", "UPDATE inventory SET stocks = stocks - ? WHERE goods = ? AND reserved >= ?", ""},
		{"floor ORed", "UPDATE inventory SET stocks = stocks - ? WHERE goods = ? OR stocks >= ?", ""},
		{"strict floor", "UPDATE inventory SET stocks = stocks - ? WHERE goods = ? AND stocks > ?", ""},
		{"increment", "UPDATE inventory SET stocks = stocks + ? WHERE goods = ? AND stocks >= ?", ""},
		{"absolute", "UPDATE inventory SET stocks = ? WHERE goods = ? AND stocks >= ?", ""},
		{"decrement and a set", "UPDATE inventory SET stocks = stocks - ?, note = ? WHERE goods = ? AND stocks >= ?", ""},
		{"constant amount", "UPDATE inventory SET stocks = stocks - 1 WHERE goods = ? AND stocks >= 1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sqlscan.Parse(tc.query)
			if s.Unknown || len(s.Statements) != 1 {
				t.Fatalf("unknown or not one statement: %s", scriptSummary(s))
			}
			var got []string
			for _, b := range s.Statements[0].Bounds {
				got = append(got, fmt.Sprintf("%s:%s>=%s", b.Column, param(b.Amount), param(b.Floor)))
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("Bounds = %q, want %q", g, tc.want)
			}
		})
	}
}

// TestPins checks the conditions read from one-table DELETEs that only
// hold columns to values.
func TestPins(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        string // column:values;..., or "-"
	}{
		{"key and state", "DELETE FROM service WHERE id = $1 AND status = 'PENDING_DELETE'", "id:$1;status:'PENDING_DELETE'"},
		{"state first, IN", "DELETE FROM service WHERE status IN ('PENDING_DELETE', 'DELETED') AND id = $1", "status:'PENDING_DELETE','DELETED';id:$1"},
		{"placeholders", "DELETE FROM service WHERE id = ? AND status = ?", "id:?#1;status:?#2"},
		{"one condition", "DELETE FROM service WHERE status = 'PENDING_DELETE'", "-"},
		{"another kind of condition", "DELETE FROM service WHERE id = $1 AND status = 'PENDING_DELETE' AND updated_at < $2", "-"},
		{"one column twice", "DELETE FROM service WHERE id = $1 AND id = $2", "-"},
		{"top-level OR", "DELETE FROM service WHERE id = $1 AND status = 'PENDING_DELETE' OR id = $2", "-"},
		{"another table", "DELETE FROM service USING hosts WHERE service.id = $1 AND status = 'PENDING_DELETE'", "-"},
		{"MySQL join", "DELETE service FROM service JOIN hosts ON service.host = hosts.id WHERE service.id = ? AND status = 'PENDING_DELETE'", "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sqlscan.Parse(tc.query)
			if s.Unknown || len(s.Statements) != 1 {
				t.Fatalf("unknown or not one statement: %s", scriptSummary(s))
			}
			got := "-"
			for i, p := range s.Statements[0].Pins {
				if i == 0 {
					got = ""
				} else {
					got += ";"
				}
				_, values, _ := strings.Cut(transitionSummary(&sqlscan.Transition{From: p.Values}), "<-")
				got += p.Column + ":" + values
			}
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestClaims checks the columns read as a row's expiry taken over, with
// fences, which write the value they compare, as twins.
func TestClaims(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        string // the claimed columns, or "-"
	}{
		{"upsert over an expired row", "INSERT INTO task_lock(task_name, lock_until, locked_at, locked_by) VALUES($1, $2, $3, $4) ON CONFLICT ON CONSTRAINT task_lock_pkey DO UPDATE SET lock_until = $2, locked_at = $3, locked_by = $4 where task_lock.lock_until < $3", "lock_until"},
		{"update, renewal ORed", "UPDATE leader SET holder = $1, expires_at = now() + interval '15 seconds' WHERE name = $2 AND (expires_at < now() OR holder = $1)", "expires_at"},
		{"bound on the left", "UPDATE locks SET owner = ?, expires = ? WHERE name = ? AND ? > expires", "expires"},
		{"heartbeat gone stale", "UPDATE workers SET heartbeat_at = now(), owner = $1 WHERE id = $2 AND heartbeat_at < now() - interval '30 seconds'", "heartbeat_at"},
		{"fence", "UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2", "-"},
		{"upsert fence", "INSERT INTO docs (id, body, fence) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body, fence = EXCLUDED.fence WHERE docs.fence < EXCLUDED.fence", "-"},
		{"compared, not set", "UPDATE docs SET body = $1 WHERE id = $2 AND fence < $3", "-"},
		{"set, compared the other way", "UPDATE locks SET expires = $1 WHERE name = $2 AND expires > $3", "-"},
		{"negated", "UPDATE locks SET expires = $1 WHERE name = $2 AND NOT (expires < $3)", "-"},
		{"another table's column", "UPDATE locks SET expires = $1 FROM owners WHERE owners.expires < $2", "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sqlscan.Parse(tc.query)
			if s.Unknown || len(s.Statements) != 1 {
				t.Fatalf("unknown or not one statement: %s", scriptSummary(s))
			}
			got := strings.Join(s.Statements[0].Claims, ",")
			if got == "" {
				got = "-"
			}
			if got != tc.want {
				t.Errorf("Claims = %s, want %s", got, tc.want)
			}
		})
	}
}

// TestFlags checks the UPDATEs read as assignments and pins only, the
// shape of a tombstone.
func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        string // sets;where, or "-"
	}{
		{"placeholder flag", "UPDATE queue SET is_deleted = $1 WHERE queue_name = $2 AND item = $3", "is_deleted=$1;queue_name=$2,item=$3"},
		{"literal flag", "UPDATE object_keys SET is_deleted = TRUE WHERE object_key = $1", "is_deleted=TRUE;object_key=$1"},
		{"two columns", "UPDATE t SET a = 1, b = 'x' WHERE id IN ($1, $2)", "a=1,b='x';id=$1|$2"},
		{"expression", "UPDATE t SET a = a + 1 WHERE id = $1", "-"},
		{"clock", "UPDATE t SET deleted_at = now() WHERE id = $1", "-"},
		{"range", "UPDATE t SET is_deleted = TRUE WHERE id > $1", "-"},
		{"no WHERE", "UPDATE t SET is_deleted = TRUE", "-"},
		{"joined", "UPDATE t SET is_deleted = TRUE FROM u WHERE t.id = u.id AND u.k = $1", "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sqlscan.Parse(tc.query)
			if s.Unknown || len(s.Statements) != 1 {
				t.Fatalf("unknown or not one statement: %s", scriptSummary(s))
			}
			st := s.Statements[0]
			render := func(pins []sqlscan.Pin) string {
				var out []string
				for _, p := range pins {
					var vals []string
					for _, v := range p.Values {
						if v.Literal != "" {
							vals = append(vals, v.Literal)
						} else {
							vals = append(vals, param(v.Param))
						}
					}
					out = append(out, p.Column+"="+strings.Join(vals, "|"))
				}
				return strings.Join(out, ",")
			}
			got := "-"
			if st.Sets != nil {
				got = render(st.Sets) + ";" + render(st.Where)
			}
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}
