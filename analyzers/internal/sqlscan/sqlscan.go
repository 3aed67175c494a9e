package sqlscan

import "strconv"

// Dialect selects the lexical rules used to read a query. The rules that
// differ between dialects are the ones that move token boundaries: backslash
// escapes and double-quoted strings (MySQL), `#` line comments (MySQL),
// nested block comments and dollar quoting (PostgreSQL).
type Dialect uint8

const (
	// Auto reads the query with PostgreSQL rules and, when the query uses a
	// lexical feature whose meaning differs between dialects, also with
	// MySQL rules. If the two readings disagree and the query carries no
	// unambiguous dialect marker ($1, ::, backquotes, ON DUPLICATE KEY, ...),
	// the script is marked Unknown.
	Auto Dialect = iota
	// PostgreSQL is for pgx, lib/pq and database/sql with a PostgreSQL driver.
	PostgreSQL
	// MySQL is for go-sql-driver/mysql (MySQL and MariaDB).
	MySQL
	// SQLite is for mattn/go-sqlite3, modernc.org/sqlite and friends.
	SQLite
)

// String returns the dialect's name.
func (d Dialect) String() string {
	switch d {
	case PostgreSQL:
		return "PostgreSQL"
	case MySQL:
		return "MySQL"
	case SQLite:
		return "SQLite"
	}
	return "Auto"
}

// Script is the result of reading the SQL text of one Exec/Query call.
type Script struct {
	// Statements in order of appearance, split at top-level semicolons.
	// Empty statements (a trailing ";") are dropped.
	Statements []Statement
	// Params holds every placeholder of the script in order of appearance.
	Params []Param
	// Dialect is the dialect whose lexical rules were applied. For Auto it
	// names the dialect that was chosen when the readings disagreed, and is
	// Auto when they agreed.
	Dialect Dialect
	// Unknown reports that the text could not be read reliably (an
	// unterminated string or comment, an ambiguous dialect, MySQL
	// executable comments) or that some statement is Unknown. Nothing in
	// Statements should be trusted to be complete; callers must stay quiet.
	Unknown bool
	// Problem says why the script is Unknown.
	Problem string
}

// Statement is one SQL statement of a Script.
type Statement struct {
	// Verb is the upper-case leading keyword after any WITH clause: SELECT,
	// INSERT, UPDATE, DELETE, MERGE, REPLACE, UPSERT, TRUNCATE, COPY, CALL,
	// CREATE, ... It is "" when the statement does not start with a keyword.
	Verb string
	// Writes reports that the statement modifies table data: INSERT, UPDATE,
	// DELETE, MERGE, REPLACE, UPSERT, TRUNCATE, COPY ... FROM, LOAD DATA, or
	// a data-modifying WITH clause. SELECT ... INTO and DDL do not count.
	Writes bool
	// Server names a statement that changes the server's replication or
	// role rather than table data (server.go): "CHANGE MASTER", "STOP
	// SLAVE", "RESET MASTER", "SET GLOBAL read_only"; "" for others.
	Server string
	// Table is the target table of the write, unquoted, schema-qualified as
	// written ("app.settings", "OrderLine"). For a statement whose only
	// writes are in its WITH clause it is the first such target.
	Table string
	// Alias is the target table's alias, if any ("UPDATE docs AS d").
	Alias string
	// Fences are comparisons that make the write reject a stale token: in
	// the WHERE of UPDATE and DELETE, in ON CONFLICT ... DO UPDATE ...
	// WHERE, in the WHEN MATCHED AND conditions of MERGE (only when every
	// WHEN MATCHED branch that writes has one), and in the IF/CASE
	// conditions of ON DUPLICATE KEY UPDATE (only when no column there is
	// overwritten unconditionally). A fence ANDed with anything counts; one
	// ORed with anything but a NULL test of its column does not.
	Fences []Fence
	// Stored lists placeholders written into columns (SET c = $2, INSERT
	// (c) VALUES ($2), ON DUPLICATE KEY UPDATE c = ?).
	Stored []Assign
	// Calls lists calls to functions this package knows (see KnownFunc).
	Calls []Call
	// Accumulates reports an UPDATE, or the update of an upsert, whose
	// every assignment adds to or subtracts from the column's own value
	// (SET n = n + $1; ON DUPLICATE KEY UPDATE n = n + VALUES(n); DO
	// UPDATE SET n = t.n - EXCLUDED.n): it replaces no value, so two such
	// writes commute.
	Accumulates bool
	// Inserts lists, for an INSERT ... VALUES with a column list, what
	// the rows give each listed column; nil for other statements and for
	// INSERT ... SELECT, DEFAULT VALUES or an INSERT without a column list.
	Inserts []InsertCol
	// Params holds every placeholder of the statement in order.
	Params []Param
	// Returning reports a RETURNING clause.
	Returning bool
	// ForUpdate reports a locking read (FOR UPDATE, FOR NO KEY UPDATE,
	// FOR SHARE, LOCK IN SHARE MODE).
	ForUpdate bool
	// Locked is, for a locking read, the first table its FROM clause
	// names, unquoted ("?" for a hole, as Table).
	Locked string
	// LockedColumns lists, for a locking read, the columns of its select
	// list in order: a plain column's unqualified name, "" for anything
	// else (an expression, *, a column renamed with AS).
	LockedColumns []string
	// Assigned lists the columns an UPDATE's SET assigns, unqualified, in
	// order.
	Assigned []string
	// TableHole and LockedHole are the holes that alone name Table and
	// Locked (UPDATE <hole> SET ...: a table chosen at run time), or zero.
	TableHole, LockedHole Param
	// Conflict names the statement's conflict handling: "" (none),
	// "DO NOTHING", "DO UPDATE" (ON CONFLICT), "DUPLICATE KEY UPDATE",
	// "IGNORE" (INSERT IGNORE / INSERT OR IGNORE), "REPLACE" (REPLACE INTO,
	// INSERT OR REPLACE), "NOT EXISTS" (INSERT ... SELECT ... WHERE NOT
	// EXISTS a row of the target with the same key).
	Conflict string
	// Converges reports an ON CONFLICT DO UPDATE whose WHERE applies it
	// only where the row differs from what the INSERT carries (jobs.type
	// <> EXCLUDED.type OR jobs.cron <> :cron, each compared with the value
	// inserted into that column): writing the same values twice changes
	// nothing the second time. Differs lists the placeholders compared.
	Converges bool
	Differs   []Param
	// With holds the data-modifying statements of a WITH clause, each read
	// as a statement of its own: `WITH u AS (UPDATE ...) SELECT ...`.
	With []Statement
	// Claims lists the columns an UPDATE, or the update of an upsert,
	// assigns whose old value its condition requires to be below a bound
	// other than the new value (SET lock_until = $2 ... WHERE lock_until <
	// $3; SET expires_at = now() + interval '15s' WHERE expires_at < now()
	// OR holder = $1): a row taken over once its time has run out, as a
	// lease row is. A fence, which writes the value it compares with, is
	// none. Whether the row is a lease is the caller's to judge.
	Claims []string
	// Claimed lists, when Claims is set, every column the claim's SET
	// assigns (the holder, the expiry, a token): what identifies the
	// holder of the row, beside its key.
	Claimed []string
	// Versions lists the optimistic-concurrency checks of an UPDATE: a
	// column bumped in SET (version = version + 1) and compared for
	// equality with a placeholder in the WHERE clause (Op "=").
	Versions []Fence
	// Bounds lists, for an UPDATE of one table whose every assignment
	// subtracts a placeholder from the column's own value, each column's
	// floor in the WHERE clause: SET stocks = stocks - $1 WHERE ... AND
	// stocks >= $2. nil unless every assignment has one. Whether the two
	// placeholders carry the same value is the caller's to check.
	Bounds []Bound
	// Expiry reports a DELETE whose WHERE clause selects rows only by age
	// or expiry: every ANDed condition compares a column with a time
	// before it (expires_at < now(), created_at < now() - interval '7
	// days', expires_at < $1), or takes the keys of rows a subquery or
	// WITH query selects that way (WITH rows AS (SELECT id FROM t WHERE
	// expires_at < $1 LIMIT 100) DELETE FROM t WHERE id IN (SELECT id FROM
	// rows)). A soft delete by age counts too: an UPDATE that only stamps
	// a column with the current time, of rows that column has not stamped
	// (UPDATE jobs SET deleted_at = now() WHERE deleted_at IS NULL AND
	// finished_at < $1). AgeParams lists the placeholders compared with (and
	// a stamp given as one), which the caller must check carry a time.
	Expiry    bool
	AgeParams []Param
	// Transition is the state transition of an UPDATE that sets a column
	// only where its WHERE clause requires that column to hold one of some
	// values (SET state = 'created' WHERE id = $1 AND state IN ('creating',
	// 'created')), or nil.
	Transition *Transition
	// Pins lists the conditions of a one-table DELETE whose WHERE clause
	// only holds two or more columns each to one of some values (DELETE
	// FROM service WHERE id = $1 AND status = 'PENDING_DELETE'), or nil.
	Pins []Pin
	// Sets and Where hold, for a one-table UPDATE whose every assignment
	// gives a column one placeholder or literal and whose WHERE clause
	// only holds columns to values, ANDed (UPDATE queue SET is_deleted =
	// $1 WHERE queue_name = $2 AND item = $3), the assignments and the
	// conditions; nil otherwise. Where holds them for a one-table DELETE
	// too (DELETE FROM task_lock WHERE task_name = $1).
	Sets, Where []Pin
	// Derived reports a set-based UPDATE over other tables (JOIN, FROM)
	// that binds no value, sets each column to a literal, another table's
	// column or the store's clock (never from its own value), and whose
	// WHERE clause, ANDed, filters the other tables' rows by their own
	// columns alone (UPDATE workers JOIN ip_addresses ON workers.id =
	// ip_addresses.worker_id SET workers.active = TRUE WHERE
	// ip_addresses.active = TRUE AND workers.active = FALSE): the rows it
	// changes and what it writes follow from the rows as they are when it
	// runs, not from anything its writer holds.
	Derived bool
	// Reset reports a one-table UPDATE with no WHERE clause that binds no
	// value and sets each column to 0 (UPDATE users SET usage_count = 0,
	// sms_count = 0): a reset of counters that neither picks rows nor
	// carries a value, so what it writes owes nothing to what its writer
	// read. Other constants are left out: a stale holder's SET owner =
	// NULL or SET state = 'idle' of every row undoes values the next
	// holder assigned, while counters are only added to between resets.
	Reset bool
	// Open lists the holes (Hole placeholders) that stand where a condition
	// or a clause may be, rather than a value: WHERE <hole>, AND <hole>, or
	// an UPDATE or DELETE with no visible WHERE followed by a hole, or the
	// condition of a subquery that would make a DELETE one by age. What
	// such a hole holds decides whether the write is fenced.
	Open []Param
	// Name and Cmd come from a preceding sqlc annotation comment
	// "-- name: UpdateDoc :execrows" (Name "UpdateDoc", Cmd ":execrows").
	Name, Cmd string
	// Unknown reports that the statement's structure was not understood
	// (unrecognised verb, unbalanced parentheses, a write whose target or
	// clauses could not be read). Writes may still be true; Fences and
	// Stored may be incomplete. The Script is then Unknown too.
	Unknown bool
	// Problem says why the statement is Unknown.
	Problem string
	// Pos and End are the byte offsets of the statement in the query.
	Pos, End int
}

// ParamStyle is the syntax of a placeholder.
type ParamStyle uint8

const (
	// NoParam is the zero Param: the value is not a placeholder.
	NoParam ParamStyle = iota
	// Dollar is $n (PostgreSQL, SQLite).
	Dollar
	// Question is ? (MySQL, SQLite, database/sql drivers that rebind).
	Question
	// QuestionNum is ?NNN (SQLite).
	QuestionNum
	// AtName is @name (pgx.NamedArgs, SQLite, sql.Named with sqlserver).
	// In MySQL it is a user variable, which no Go argument feeds.
	AtName
	// ColonName is :name (SQLite, sqlx named queries, Oracle).
	ColonName
	// DollarName is $name (SQLite).
	DollarName
	// Hole is a value the Go program splices into the text at run time
	// (fmt.Sprintf's %d, a concatenated variable): the caller marks it
	// with HoleMarker(n) and gets Index n back.
	Hole
)

// String returns a short name of the style.
func (s ParamStyle) String() string {
	switch s {
	case Dollar:
		return "$n"
	case Question:
		return "?"
	case QuestionNum:
		return "?n"
	case AtName:
		return "@name"
	case ColonName:
		return ":name"
	case DollarName:
		return "$name"
	case Hole:
		return "hole"
	}
	return "none"
}

// Param is a placeholder.
type Param struct {
	Style ParamStyle
	// Index is n for $n and ?NNN, and the 1-based ordinal among all ? of
	// the script for ?. It is 0 for named placeholders.
	Index int
	// Name is the name of a named placeholder, without its sigil.
	Name string
	// Pos is the byte offset of the placeholder in the query.
	Pos int
}

// IsZero reports whether p is not a placeholder.
func (p Param) IsZero() bool { return p.Style == NoParam }

// Same reports whether p and q denote the same argument (ignoring position).
func (p Param) Same(q Param) bool {
	a, an := ArgIndex(p)
	b, bn := ArgIndex(q)
	if p.IsZero() || q.IsZero() {
		return false
	}
	if p.Style == Hole || q.Style == Hole {
		return p.Style == q.Style && p.Index == q.Index
	}
	if a >= 0 || b >= 0 {
		return a == b
	}
	return an == bn
}

// String renders the placeholder as written.
func (p Param) String() string {
	switch p.Style {
	case Dollar:
		return "$" + strconv.Itoa(p.Index)
	case Question:
		return "?"
	case QuestionNum:
		return "?" + strconv.Itoa(p.Index)
	case AtName:
		return "@" + p.Name
	case ColonName:
		return ":" + p.Name
	case DollarName:
		return "$" + p.Name
	case Hole:
		return "<run-time text " + strconv.Itoa(p.Index) + ">"
	}
	return "<none>"
}

// ArgIndex maps a placeholder to its index in the variadic args slice of the
// Go call (db.ExecContext(ctx, q, args...)): $n and ?n give n-1, ? gives its
// ordinal-1. Named placeholders give -1 and their name, to be resolved by the
// caller through sql.Named or pgx.NamedArgs. The zero Param gives -1, "".
func ArgIndex(p Param) (index int, name string) {
	switch p.Style {
	case Dollar, Question, QuestionNum:
		if p.Index >= 1 {
			return p.Index - 1, ""
		}
	case AtName, ColonName, DollarName:
		return -1, p.Name
	}
	return -1, ""
}

// A Bound is one bounded decrement of an UPDATE: SET Column = Column -
// Amount ... WHERE Column >= Floor.
type Bound struct {
	Column        string
	Amount, Floor Param
}

// Fence is a comparison that rejects a write carrying an older-or-equal
// token: the stored Column must be less than (Op "<") or at most (Op "<=")
// the Token, so a stale holder's write matches no row. It is the shape of a
// fence only: whether the Go argument bound to Token carries a fencing
// token (and not, say, a date) is for the caller to check.
type Fence struct {
	// Column is the compared column, unquoted and without its qualifier.
	Column string
	// Op is "<" or "<=", read as "stored column Op token".
	Op string
	// Token is the placeholder carrying the token. For `col < EXCLUDED.col`,
	// `VALUES(col)` and MySQL row aliases it is the placeholder inserted
	// into that column. For a MySQL user variable (`col < @tok`) it is the
	// placeholder an earlier "SET @tok = ?" of the script assigned, else an
	// AtName Param naming the variable, which no Go argument feeds. It is
	// the zero Param when the compared value is not a single placeholder
	// (INSERT ... SELECT, a joined row, an expression): the statement is
	// fenced but the token cannot be traced.
	Token Param
	// NullOK reports that a NULL stored value passes the fence
	// (`col IS NULL OR col < $2`, `COALESCE(col, 0) < $2`).
	NullOK bool
	// Clause is where the fence is: "WHERE", "ON CONFLICT WHERE",
	// "ON DUPLICATE KEY UPDATE", "MERGE WHEN".
	Clause string
}

// Assign is a placeholder written into a column.
type Assign struct {
	Column string
	Value  Param
}

// InsertCol is a column of an INSERT's column list and what its rows give it.
type InsertCol struct {
	Column string // as written, unquoted; "" for a part that is not a plain name
	// Values holds the placeholder each row gives the column, or the zero
	// Param where the row gives a literal.
	Values []Param
	// Plain reports that every row gives the column a placeholder or a
	// literal other than NULL and DEFAULT, not an expression (now(),
	// gen_random_uuid(), a subquery) the database computes.
	Plain bool
}

// Call is a call of a function listed by KnownFunc.
type Call struct {
	// Name is the lower-case function name without schema.
	Name string
	// Args holds the placeholders among the call's arguments, in order,
	// at any depth (pg_advisory_lock(hashtext($1)) has Args [$1]); at most
	// eight are kept.
	Args []Param
	// Pos is the byte offset of the call in the query.
	Pos int
}

// Fenced reports whether every write of the statement (its own and those of
// its WITH clause) has at least one fence.
func (s *Statement) Fenced() bool {
	if !s.Writes {
		return false
	}
	own := s.ownWrite()
	if own && len(s.Fences) == 0 {
		return false
	}
	for i := range s.With {
		if s.With[i].Writes && !s.With[i].Fenced() {
			return false
		}
	}
	return true
}

// ownWrite reports whether the statement's main verb writes, as opposed to
// only its WITH clause.
func (s *Statement) ownWrite() bool {
	switch s.Verb {
	case "INSERT", "UPDATE", "DELETE", "MERGE", "REPLACE", "UPSERT", "TRUNCATE", "LOAD":
		return true
	case "COPY":
		return s.Writes && len(s.With) == 0
	}
	return false
}
