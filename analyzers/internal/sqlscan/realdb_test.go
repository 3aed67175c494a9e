package sqlscan_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// The tests in this file check sqlscan's verdict against real databases:
// each query is run twice on a row whose fence is 5, once with a stale
// token (4) and once with a newer one (6). A statement sqlscan calls fenced
// must leave the row alone on the stale run and write it on the fresh run;
// one it calls unfenced must let the stale write through. The database is
// the judge of both the case table and the parser.

// dbCase is one write run on a real database.
type dbCase struct {
	name  string
	query string
	// args maps each placeholder, as the engine's client names it ($1,
	// ?1, :body, @tok; positional engines use p1, p2, ...), to its SQL
	// literal; "TOKEN" and "BODY" are replaced by the stale or fresh
	// token and body.
	args [][2]string
	// token is the placeholder of args that carries the token, as
	// tokenKey renders the fence's Token ("" when the token cannot be
	// traced to a placeholder).
	token  string
	fenced bool
}

// schema is the table every case writes: one row with fence 5.
const schema = "CREATE TABLE docs (id bigint PRIMARY KEY, body text, fence bigint);\nINSERT INTO docs VALUES (1, 'old', 5);\n"

// tokenKey renders a placeholder the way dbCase.token names it.
func tokenKey(p sqlscan.Param) string {
	switch p.Style {
	case sqlscan.Question, sqlscan.QuestionNum:
		return "?" + strconv.Itoa(p.Index)
	case sqlscan.NoParam:
		return ""
	}
	return p.String()
}

// bind returns the case's arguments for one run.
func (c dbCase) bind(token int, body string) [][2]string {
	out := make([][2]string, len(c.args))
	for i, a := range c.args {
		v := strings.ReplaceAll(a[1], "TOKEN", strconv.Itoa(token))
		out[i] = [2]string{a[0], strings.ReplaceAll(v, "BODY", "'"+body+"'")}
	}
	return out
}

// checkVerdict compares sqlscan's reading of c.query with the database's
// behaviour (afterStale, afterFresh: the row's body after each run).
func checkVerdict(t *testing.T, d sqlscan.Dialect, c dbCase, afterStale, afterFresh string) {
	t.Helper()
	switch {
	case c.fenced && (afterStale != "old" || afterFresh != "fresh"):
		t.Fatalf("case table wrong: the database gave %q after the stale write and %q after the fresh one, want old, fresh", afterStale, afterFresh)
	case !c.fenced && afterStale != "stale":
		t.Fatalf("case table wrong: the database rejected the stale write (body %q)", afterStale)
	}
	s := sqlscan.ParseDialect(c.query, d)
	if s.Unknown || len(s.Statements) != 1 {
		t.Fatalf("Parse: Unknown=%v (%s), %d statements", s.Unknown, s.Problem, len(s.Statements))
	}
	st := s.Statements[0]
	if got := st.Fenced(); got != c.fenced {
		t.Fatalf("Fenced() = %v, but the database says %v (%s)", got, c.fenced, summary(st))
	}
	if c.fenced {
		fences := st.Fences
		for _, w := range st.With {
			fences = append(fences, w.Fences...)
		}
		if got := tokenKey(fences[0].Token); got != c.token {
			t.Fatalf("fence token %q, want %q (%s)", got, c.token, summary(st))
		}
	}
}

func TestFencesOnPostgreSQL(t *testing.T) {
	pg := startPostgres(t)
	positional := [][2]string{{"$1", "BODY"}, {"$2", "TOKEN"}, {"$3", "1"}}
	cases := []dbCase{
		{"fence <", `UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2`, positional, "$2", true},
		{"fence <=", `UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence <= $2`, positional, "$2", true},
		{"token on the left", `UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND $2 > fence`, positional, "$2", true},
		{"NULL or older", `UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND (fence IS NULL OR fence < $2)`, positional, "$2", true},
		{"COALESCE and casts", `UPDATE docs AS d SET body = $1::text, fence = $2::bigint WHERE d.id = $3 AND COALESCE(d.fence, 0) < $2::bigint`, positional, "$2", true},
		{"negated", `UPDATE docs SET body = $1, fence = $2 WHERE NOT (fence >= $2) AND id = $3`, positional, "$2", true},
		{"ON CONFLICT WHERE with EXCLUDED", `INSERT INTO docs (id, body, fence) VALUES ($3, $1, $2) ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body, fence = EXCLUDED.fence WHERE docs.fence < EXCLUDED.fence`, positional, "$2", true},
		{"data-modifying CTE", `WITH u AS (UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2 RETURNING id) SELECT count(*) FROM u`, positional, "$2", true},
		{"MERGE WHEN MATCHED AND", `MERGE INTO docs d USING (SELECT $3::bigint AS id, $1::text AS body, $2::bigint AS tok) s ON d.id = s.id WHEN MATCHED AND d.fence < s.tok THEN UPDATE SET body = s.body, fence = s.tok`, positional, "", true},
		{"ORed with the key", `UPDATE docs SET body = $1, fence = $2 WHERE id = $3 OR fence < $2`, positional, "", false},
		{"wrong direction", `UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence > $2`, positional, "", false},
		{"in a comment", `UPDATE docs SET body = $1, fence = $2 WHERE id = $3 /* AND fence < $2 */`, positional, "", false},
		{"in a string", `UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND 'x AND fence < $2' <> ''`, positional, "", false},
		{"in a dollar-quoted string", `UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND $q$ fence < $2 $q$ <> ''`, positional, "", false},
		{"in an E string", `UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND E'\' AND fence < $2' <> ''`, positional, "", false},
		{"ON CONFLICT without WHERE", `INSERT INTO docs (id, body, fence) VALUES ($3, $1, $2) ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body, fence = EXCLUDED.fence`, positional, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stale, fresh := pg.run(t, c, 4, "stale"), pg.run(t, c, 6, "fresh")
			checkVerdict(t, sqlscan.PostgreSQL, c, stale, fresh)
		})
	}
}

func TestFencesOnSQLite(t *testing.T) {
	numbered := [][2]string{{"?1", "BODY"}, {"?2", "TOKEN"}, {"?3", "1"}}
	named := [][2]string{{":body", "BODY"}, {"@tok", "TOKEN"}, {"$id", "1"}}
	cases := []dbCase{
		{"numbered", `UPDATE docs SET body = ?1, fence = ?2 WHERE id = ?3 AND fence < ?2`, numbered, "?2", true},
		{"anonymous", `UPDATE docs SET body = ?, fence = ? WHERE id = ? AND fence < ?2`, numbered, "?2", true},
		{"named styles", `UPDATE docs SET body = :body, fence = @tok WHERE id = $id AND fence <= @tok`, named, "@tok", true},
		{"brackets and backquotes", "UPDATE [docs] SET `body` = ?1, fence = ?2 WHERE id = ?3 AND [fence] < ?2", numbered, "?2", true},
		{"upsert WHERE excluded", `INSERT INTO docs (id, body, fence) VALUES (?3, ?1, ?2) ON CONFLICT(id) DO UPDATE SET body = excluded.body, fence = excluded.fence WHERE fence < excluded.fence`, numbered, "?2", true},
		{"INSERT OR REPLACE", `INSERT OR REPLACE INTO docs (id, body, fence) VALUES (?3, ?1, ?2)`, numbered, "", false},
		{"upsert without WHERE", `INSERT INTO docs (id, body, fence) VALUES (?3, ?1, ?2) ON CONFLICT(id) DO UPDATE SET body = excluded.body`, numbered, "", false},
		{"in a comment", "UPDATE docs SET body = ?1, fence = ?2 WHERE id = ?3 -- AND fence < ?2", numbered, "", false},
		{"in a quoted identifier", `UPDATE docs SET body = ?1, fence = ?2 WHERE id = ?3 AND "fence < ?2" IS NOT NULL`, numbered, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stale, fresh := runSQLite(t, c, 4, "stale"), runSQLite(t, c, 6, "fresh")
			checkVerdict(t, sqlscan.SQLite, c, stale, fresh)
		})
	}
}

func TestFencesOnMariaDB(t *testing.T) {
	my := startMariaDB(t)
	update := [][2]string{{"?1", "BODY"}, {"?2", "TOKEN"}, {"?3", "1"}, {"?4", "TOKEN"}}
	upsert := [][2]string{{"?1", "1"}, {"?2", "BODY"}, {"?3", "TOKEN"}}
	three := update[:3]
	const insert = "INSERT INTO docs (id, body, fence) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE "
	cases := []dbCase{
		{"fence <", `UPDATE docs SET body = ?, fence = ? WHERE id = ? AND fence < ?`, update, "?4", true},
		{"token on the left", `UPDATE docs SET body = ?, fence = ? WHERE id = ? AND ? > fence`, update, "?4", true},
		{"backquotes", "UPDATE `docs` SET `body` = ?, `fence` = ? WHERE `id` = ? AND `fence` < ?", update, "?4", true},
		{"IF(VALUES()) on every column", insert + "body = IF(fence < VALUES(fence), VALUES(body), body), fence = IF(fence < VALUES(fence), VALUES(fence), fence)", upsert, "?3", true},
		{"IF and GREATEST", insert + "body = IF(fence < VALUES(fence), VALUES(body), body), fence = GREATEST(fence, VALUES(fence))", upsert, "?3", true},
		{"CASE WHEN", insert + "body = CASE WHEN fence < VALUES(fence) THEN VALUES(body) ELSE body END, fence = GREATEST(fence, VALUES(fence))", upsert, "?3", true},
		{"one column unguarded", insert + "fence = GREATEST(fence, VALUES(fence)), body = VALUES(body)", upsert, "", false},
		{"no guard", insert + "body = VALUES(body), fence = VALUES(fence)", upsert, "", false},
		{"REPLACE", `REPLACE INTO docs (id, body, fence) VALUES (?, ?, ?)`, upsert, "", false},
		{"hidden by a backslash escape", `UPDATE docs SET body = ?, fence = ? WHERE id = ? AND 'x\' AND fence < ?' <> ''`, three, "", false},
		{"hidden in a double-quoted string", `UPDATE docs SET body = ?, fence = ? WHERE id = ? AND "fence < ?" <> ''`, three, "", false},
		{"hidden in a # comment", "UPDATE docs SET body = ?, fence = ? WHERE id = ? # AND fence < ?", three, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stale, fresh := my.run(t, c, 4, "stale"), my.run(t, c, 6, "fresh")
			checkVerdict(t, sqlscan.MySQL, c, stale, fresh)
		})
	}
}

// mariadb is a MariaDB server started for the test.
type mariadb struct {
	sock string
}

// startMariaDB initializes and starts a MariaDB server on a unix socket in a
// temporary directory and stops it when the test ends.
func startMariaDB(t *testing.T) *mariadb {
	t.Helper()
	for _, bin := range []string{"mariadb-install-db", "mariadbd", "mariadb"} {
		if _, err := lookPath(bin); err != nil {
			t.Fatalf("%s not found: install mariadb-server and mariadb-client", bin)
		}
	}
	dir, err := os.MkdirTemp("", "sqlscan-mariadb-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	data, sock := filepath.Join(dir, "data"), filepath.Join(dir, "sock")
	who := "--user=" + currentUser(t)
	install, _ := lookPath("mariadb-install-db")
	// Its own tmpdir: bootstraps sharing /tmp collide on their temporary
	// tables when another test package starts a server at the same time.
	if out, err := exec.Command(install, "--no-defaults", "--datadir="+data, "--tmpdir="+dir, who,
		"--auth-root-authentication-method=normal", "--skip-test-db").CombinedOutput(); err != nil {
		t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	server, _ := lookPath("mariadbd")
	cmd := exec.Command(server, "--no-defaults", "--datadir="+data, "--tmpdir="+dir, "--socket="+sock, "--skip-networking",
		who, "--pid-file="+filepath.Join(dir, "pid"), "--log-error="+filepath.Join(dir, "err"),
		"--innodb-flush-log-at-trx-commit=0")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	client, _ := lookPath("mariadb")
	if !waitFor(2*time.Minute, func() bool {
		return exec.Command(client, "--no-defaults", "-S", sock, "-u", "root", "-e", "SELECT 1").Run() == nil
	}) {
		log, _ := os.ReadFile(filepath.Join(dir, "err"))
		t.Fatalf("MariaDB did not start:\n%s", log)
	}
	return &mariadb{sock: sock}
}

// currentUser names the user the test runs as (MariaDB wants --user=root
// to run as root).
func currentUser(t *testing.T) string {
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	return u.Username
}

// run runs the case as a server-side prepared statement in a fresh table
// and returns the row's body afterwards.
func (my *mariadb) run(t *testing.T, c dbCase, token int, body string) string {
	t.Helper()
	var set, using []string
	for i, a := range c.bind(token, body) {
		set = append(set, fmt.Sprintf("@p%d = %s", i+1, a[1]))
		using = append(using, fmt.Sprintf("@p%d", i+1))
	}
	quoted := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(c.query)
	script := "CREATE DATABASE IF NOT EXISTS fence;\nUSE fence;\nDROP TABLE IF EXISTS docs;\n" + schema +
		"SET @q = '" + quoted + "';\nPREPARE w FROM @q;\nSET " + strings.Join(set, ", ") + ";\n" +
		"EXECUTE w USING " + strings.Join(using, ", ") + ";\nDEALLOCATE PREPARE w;\nSELECT body FROM docs WHERE id = 1;\n"
	return run(t, script, "mariadb", "--no-defaults", "-S", my.sock, "-u", "root", "-N", "-B")
}

// runSQLite runs the case in a fresh in-memory database with the sqlite3
// shell and returns the row's body afterwards.
func runSQLite(t *testing.T, c dbCase, token int, body string) string {
	t.Helper()
	var script strings.Builder
	script.WriteString(".bail on\n" + schema + ".parameter init\n")
	for _, a := range c.bind(token, body) {
		fmt.Fprintf(&script, ".parameter set %s %s\n", a[0], a[1])
	}
	script.WriteString(c.query + "\n;\nSELECT body FROM docs WHERE id = 1;\n")
	return run(t, script.String(), "sqlite3", "-batch", ":memory:")
}

// run runs a client with script on stdin and returns its trimmed output.
func run(t *testing.T, script, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdin = strings.NewReader(script)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		t.Fatalf("%s: %v\n%s\nscript:\n%s", name, err, errb.String(), script)
	}
	return strings.TrimSpace(out.String())
}

// postgres is a PostgreSQL server started for the test.
type postgres struct {
	sock string // directory of the unix socket
}

// startPostgres initializes and starts a PostgreSQL server on a unix socket
// in a temporary directory, as the postgres user when running as root
// (initdb refuses root), and stops it when the test ends.
func startPostgres(t *testing.T) *postgres {
	t.Helper()
	for _, bin := range []string{"initdb", "pg_ctl", "postgres", "psql"} {
		if _, err := lookPath(bin); err != nil {
			t.Fatalf("%s not found: install PostgreSQL 15 (server binaries in /usr/local/bin or /usr/lib/postgresql/15/bin, and psql)", bin)
		}
	}
	dir, err := os.MkdirTemp("", "sqlscan-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	cred := serverCredential(t, dir)
	data := filepath.Join(dir, "data")
	pgRun(t, cred, "initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
	pgRun(t, cred, "pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-t", "120",
		"-o", "-c listen_addresses='' -k "+dir+" -c fsync=off", "start")
	t.Cleanup(func() {
		cmd, _ := pgCommand(cred, "pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("pg_ctl stop: %v\n%s", err, out)
		}
	})
	return &postgres{sock: dir}
}

// run runs the case in a fresh table and returns the row's body afterwards.
func (pg *postgres) run(t *testing.T, c dbCase, token int, body string) string {
	t.Helper()
	var vals []string
	for _, a := range c.bind(token, body) {
		vals = append(vals, a[1])
	}
	script := "SET client_min_messages = warning;\nDROP TABLE IF EXISTS docs;\n" + schema +
		"PREPARE w AS " + c.query + "\n;\nEXECUTE w(" + strings.Join(vals, ", ") + ");\nDEALLOCATE w;\n" +
		"\\t on\nSELECT body FROM docs WHERE id = 1;\n"
	out := run(t, script, "psql", "-X", "-q", "-A", "-v", "ON_ERROR_STOP=1", "-h", pg.sock, "-U", "postgres", "-d", "postgres")
	lines := strings.Split(out, "\n")
	return lines[len(lines)-1] // after EXECUTE's own output (a CTE's count)
}

// serverCredential returns the credential to run a database server with:
// the postgres user when running as root (created if missing), owning dir;
// nil otherwise.
func serverCredential(t *testing.T, dir string) *syscall.Credential {
	t.Helper()
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		if out, err := exec.Command("useradd", "--system", "--user-group", "--no-create-home", "postgres").CombinedOutput(); err != nil {
			t.Fatalf("creating the postgres user: %v\n%s", err, out)
		}
		if u, err = user.Lookup("postgres"); err != nil {
			t.Fatal(err)
		}
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		t.Fatal(err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
}

// pgCommand builds a command for a PostgreSQL server binary run with cred.
func pgCommand(cred *syscall.Credential, name string, args ...string) (*exec.Cmd, error) {
	path, err := lookPath(name)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = os.TempDir()
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	return cmd, nil
}

// pgRun runs a PostgreSQL server binary and fails the test on error.
func pgRun(t *testing.T, cred *syscall.Credential, name string, args ...string) {
	t.Helper()
	cmd, err := pgCommand(cred, name, args...)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
}

// lookPath finds a binary on PATH or in the usual PostgreSQL directories.
func lookPath(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, dir := range []string{"/usr/local/bin", "/usr/lib/postgresql/15/bin", "/usr/sbin"} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found", name)
}

// waitFor polls ok every 100ms until it holds or timeout passes.
func waitFor(timeout time.Duration, ok func() bool) bool {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if ok() {
			return true
		}
	}
	return ok()
}
