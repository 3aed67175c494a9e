package sqlscan_test

import (
	"testing"
	"time"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

func TestServerChange(t *testing.T) {
	h := sqlscan.HoleMarker
	tests := []struct {
		query, want string
	}{
		{"CHANGE MASTER TO MASTER_HOST = 'db-2', MASTER_PORT = 3306", "CHANGE MASTER"},
		{"CHANGE MASTER 'east' TO MASTER_HOST = ?", "CHANGE MASTER"},
		{"CHANGE REPLICATION SOURCE TO SOURCE_HOST = ?", "CHANGE REPLICATION SOURCE"},
		{"STOP SLAVE", "STOP SLAVE"},
		{"STOP ALL SLAVES;", "STOP ALL SLAVES"},
		{"start replica", "START REPLICA"},
		{"START SLAVE " + h(1) + ";", "START SLAVE"},
		{"RESET SLAVE " + h(1) + " ALL;", "RESET SLAVE"},
		{"RESET MASTER;", "RESET MASTER"},
		{"RESET BINARY LOGS AND GTIDS", "RESET BINARY LOGS"},
		{"SET GLOBAL read_only = 1", "SET GLOBAL read_only"},
		{"SET @@global.super_read_only = ON", "SET GLOBAL super_read_only"},
		{"SET GLOBAL gtid_slave_pos = ?", "SET GLOBAL gtid_slave_pos"},
		{"SET PERSIST rpl_semi_sync_master_enabled = 1", "SET GLOBAL rpl_semi_sync_master_enabled"},
		{"SET @@global." + h(1) + "=" + h(2) + ";", "SET GLOBAL"},
		{"SET GLOBAL " + h(1) + " = 1", "SET GLOBAL"},

		// Not the server's replication or role.
		{"START TRANSACTION", ""},
		{"SET GLOBAL max_connections = 500", ""},
		{"SET @@global.local_infile = 1", ""},
		{"SET @@session.sql_log_bin = 0", ""},
		{"SET read_only = 1", ""}, // a session's, or PostgreSQL's
		{"SET @tok = ?", ""},
		{"RESET ALL", ""},
		{"RESET QUERY CACHE", ""},
		{"UPDATE replicas SET master = ? WHERE id = ?", ""},
		// Accounts are left out (see server.go).
		{"ALTER USER 'app'@'%' IDENTIFIED BY 'rotated'", ""},
		{"GRANT SELECT ON app.* TO 'app'@'%'", ""},
	}
	for _, tt := range tests {
		script := sqlscan.ParseDialect(tt.query, sqlscan.MySQL)
		if len(script.Statements) != 1 {
			t.Errorf("%q: %d statements, want 1", tt.query, len(script.Statements))
			continue
		}
		st := script.Statements[0]
		if st.Server != tt.want {
			t.Errorf("%q: Server = %q, want %q", tt.query, st.Server, tt.want)
		}
		if tt.want != "" && (script.Unknown || st.Writes) {
			t.Errorf("%q: Unknown = %v, Writes = %v; want a known statement that writes no table", tt.query, script.Unknown, st.Writes)
		}
	}
}

// TestServerChangesOnMariaDB runs, on a real server, each statement that
// sqlscan names a change of the server's replication or role, and checks
// that another session then sees the server differently: the statement
// changes the server, not the session that sends it. A session's own
// setting, which sqlscan does not name, changes nothing another sees.
func TestServerChangesOnMariaDB(t *testing.T) {
	my := startMariaDB(t)
	const (
		source   = "CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = 9, MASTER_USER = 'repl', MASTER_PASSWORD = 'x', MASTER_CONNECT_RETRY = 60;"
		replicas = "SHOW ALL SLAVES STATUS"
		threads  = "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Slave%'"
		cleanup  = "STOP ALL SLAVES; RESET SLAVE ALL; SET GLOBAL read_only = 0;"
	)
	tests := []struct {
		setup, query, probe string
	}{
		{"", "SET GLOBAL read_only = 1", "SELECT @@global.read_only"},
		{"SET GLOBAL read_only = 1;", "SET @@global.read_only = 0", "SELECT @@global.read_only"},
		{"", "SET GLOBAL gtid_slave_pos = '0-1-5'", "SELECT @@global.gtid_slave_pos"},
		{"", source, replicas},
		{"", "CHANGE MASTER 'east' TO MASTER_HOST = '127.0.0.2', MASTER_USER = 'repl'", replicas},
		{source, "RESET SLAVE ALL", replicas},
		{source, "START SLAVE", threads},
		{source + " START SLAVE;", "STOP SLAVE", threads},
		{source + " START SLAVE;", "STOP ALL SLAVES", threads},
		{"", "SET @@session.gtid_domain_id = 7", "SELECT @@global.gtid_domain_id"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			named := sqlscan.ParseDialect(tt.query, sqlscan.MySQL).Statements[0].Server != ""
			client := []string{"--no-defaults", "-S", my.sock, "-u", "root", "-N", "-B"}
			run(t, cleanup+tt.setup, "mariadb", client...)
			before := run(t, tt.probe, "mariadb", client...)
			run(t, tt.query, "mariadb", client...)
			after := waitProbe(t, before, tt.probe, client)
			if changed := after != before; changed != named {
				t.Errorf("named a server change: %v; another session saw the server change: %v (%q, then %q)", named, changed, before, after)
			}
		})
	}
}

// waitProbe runs probe until its output differs from before, for a few
// seconds (a replication thread takes a moment to start or stop), and
// returns the last output.
func waitProbe(t *testing.T, before, probe string, client []string) string {
	t.Helper()
	out := run(t, probe, "mariadb", client...)
	for i := 0; i < 20 && out == before; i++ {
		time.Sleep(100 * time.Millisecond)
		out = run(t, probe, "mariadb", client...)
	}
	return out
}
