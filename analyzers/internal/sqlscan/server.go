package sqlscan

import "strings"

// A failover controller changes the servers themselves: which one is the
// primary and what each replica follows.
//
//	STOP SLAVE; RESET SLAVE ALL; SET @@global.read_only = 0;
//	CHANGE MASTER TO MASTER_HOST = 'db-2', ...; START SLAVE;
//
// These write no table, but they are state another controller sets, and
// one paused past its lease that sends them late re-points replication
// after the next one chose another primary: two writable primaries, or
// replicas following the wrong one. Statement.Server names them. Global
// settings count only where they are the server's role or replication
// position (read_only, gtid_slave_pos, ...), or named at run time; other
// settings, as writes to the server's own schemas, set the server up.
// Accounts are left out too: a grant is the same change whoever makes it,
// and ALTER USER, the one account statement a stale holder can undo
// another's with (a rotated password set back), is sent by operators
// through reconcilers that share one SQL reconciler, whose interface
// field dispatch cannot tell apart per controller: read as a write, it
// named the user reconciler's ALTER USER at the grant and database
// controllers too.

// serverChange names the statement at i, its verb, when it changes the
// server's replication or role: "CHANGE MASTER", "STOP SLAVE", "RESET
// MASTER", "SET GLOBAL read_only"; "" otherwise.
func (s *stmt) serverChange(i int) string {
	switch verb := strings.ToUpper(s.toks[i].text); verb {
	case "CHANGE":
		switch {
		case s.word(i+1, "MASTER"):
			return "CHANGE MASTER"
		case s.word(i+1, "REPLICATION") && (s.word(i+2, "SOURCE") || s.word(i+2, "FILTER")):
			return "CHANGE REPLICATION " + strings.ToUpper(s.toks[i+2].text)
		}
	case "START", "STOP":
		switch {
		case s.word(i+1, "SLAVE"), s.word(i+1, "REPLICA"), s.word(i+1, "GROUP_REPLICATION"):
			return verb + " " + strings.ToUpper(s.toks[i+1].text)
		case s.word(i+1, "ALL") && (s.word(i+2, "SLAVES") || s.word(i+2, "REPLICAS")):
			return verb + " ALL " + strings.ToUpper(s.toks[i+2].text)
		}
	case "RESET":
		switch {
		case s.word(i+1, "MASTER"), s.word(i+1, "SLAVE"), s.word(i+1, "REPLICA"):
			return verb + " " + strings.ToUpper(s.toks[i+1].text)
		case s.word(i+1, "BINARY") && s.word(i+2, "LOGS"):
			return "RESET BINARY LOGS"
		}
	case "SET":
		if name, ok := s.globalSetting(i + 1); ok && replicationSetting(name) {
			if name == "" {
				return "SET GLOBAL"
			}
			return "SET GLOBAL " + name
		}
	}
	return ""
}

// globalSetting reads the first assignment of SET at i when it sets a
// global (or persisted) variable: SET GLOBAL name, SET PERSIST name, SET
// @@global.name. name is "" when the program splices it in at run time.
func (s *stmt) globalSetting(i int) (name string, ok bool) {
	if s.word(i, "GLOBAL") || s.word(i, "PERSIST") || s.word(i, "PERSIST_ONLY") {
		switch {
		case s.isHole(i + 1):
			return "", true
		case i+1 < s.hi && s.toks[i+1].isName():
			return strings.ToLower(s.toks[i+1].text), true
		}
		return "", false
	}
	if i >= s.hi || s.toks[i].kind != tWord {
		return "", false
	}
	text := strings.ToLower(s.toks[i].text)
	for _, scope := range []string{"@@global.", "@@persist.", "@@persist_only."} {
		if rest, found := strings.CutPrefix(text, scope); found {
			if rest == "" && !s.isHole(i+1) {
				return "", false
			}
			return rest, true
		}
	}
	return "", false
}

// replicationSetting reports whether the global variable name, "" when
// named at run time, is the server's role or replication position.
func replicationSetting(name string) bool {
	switch name {
	case "", "read_only", "super_read_only":
		return true
	}
	if strings.HasPrefix(name, "gtid_") || strings.HasPrefix(name, "rpl_") {
		return true
	}
	for _, part := range []string{"slave", "replica", "master", "source"} {
		if strings.Contains(name, part) {
			return true
		}
	}
	return false
}
