package gen

import (
	"fmt"
	"strings"
)

// Query names. sqlc turns them into unexported methods (and params structs
// named name+"Params"), so a fenced write cannot be called without going
// through the token-taking wrapper in fenced.go.
func updateQuery(t *fencedTable) string { return "fencedUpdate" + t.GoName }
func upsertQuery(t *fencedTable) string { return "fencedUpsert" + t.GoName }
func deleteQuery(t *fencedTable) string { return "fencedDelete" + t.GoName }
func fenceQuery(t *fencedTable) string  { return "fencedFence" + t.GoName }

// sqlWriter renders the sqlc-annotated fenced queries.
type sqlWriter struct {
	d   *dialect
	cmp Compare
	b   strings.Builder
}

func (w *sqlWriter) printf(format string, args ...any) { fmt.Fprintf(&w.b, format, args...) }

// renderFencedSQL renders fenced.sql: per table an UPDATE, an upsert, a
// DELETE and the fence read that labels a rejected write; then the token
// source queries.
func renderFencedSQL(engine Engine, cmp Compare, tables []*fencedTable, src tokenSources) string {
	w := &sqlWriter{d: newDialect(engine), cmp: cmp}
	w.b.Grow(1024 * len(tables)) // a table's queries take under 1 KiB: the large file is not copied as it grows
	for _, t := range tables {
		w.update(t)
		if !t.NoUpsert {
			w.upsert(t)
		}
		w.delete(t)
		w.fenceRead(t)
	}
	if src.Sequence {
		w.printf("%s", sequenceQueries)
	}
	if src.Leases {
		w.printf("%s", leaseQueries)
	}
	return w.b.String()
}

// col renders a column of t: as the schema spelled it where sqlc's catalog
// keeps the spelling (SQLite's [name] and `name`), else quoted as needed.
func (w *sqlWriter) col(t *fencedTable, name string) string {
	if c := t.Column(name); c != nil && c.spelling != "" {
		return c.spelling
	}
	return w.d.ident(name)
}

// tableName renders t's unqualified name, as col does a column's.
func (w *sqlWriter) tableName(t *fencedTable) string {
	if t.spelling != "" {
		return t.spelling
	}
	return w.d.ident(t.Name)
}

// table renders t's possibly schema-qualified name.
func (w *sqlWriter) table(t *fencedTable) string {
	if t.Schema == "" {
		return w.tableName(t)
	}
	return w.d.ident(t.Schema) + "." + w.tableName(t)
}

// guard renders the fence comparison against the token for the row's fence
// reference ref; a NULL fence (never written under fencing) accepts.
func (w *sqlWriter) guard(t *fencedTable, ref, token string) string {
	cond := fmt.Sprintf("%s %s %s", ref, w.cmp, token)
	if t.Fence.NotNull {
		return cond
	}
	return fmt.Sprintf("(%s IS NULL OR %s)", ref, cond)
}

// keyMatch renders "k1 = sqlc.arg(k1) AND k2 = ...".
func (w *sqlWriter) keyMatch(t *fencedTable) string {
	parts := make([]string, len(t.Key))
	for i, k := range t.Key {
		parts[i] = w.col(t, k) + " = " + w.d.arg(k)
	}
	return strings.Join(parts, " AND ")
}

func (w *sqlWriter) update(t *fencedTable) {
	var sets []string
	for _, c := range updateColumns(t) {
		sets = append(sets, w.col(t, c.Name)+" = "+w.d.arg(c.Name))
	}
	fence := w.col(t, t.Fence.Name)
	sets = append(sets, fence+" = "+w.d.token())
	w.printf("\n-- name: %s :execrows\n", updateQuery(t))
	w.printf("UPDATE %s\nSET %s\nWHERE %s\n  AND %s;\n", w.table(t), strings.Join(sets, ", "), w.keyMatch(t), w.guard(t, fence, w.d.token()))
}

func (w *sqlWriter) delete(t *fencedTable) {
	w.printf("\n-- name: %s :execrows\n", deleteQuery(t))
	w.printf("DELETE FROM %s\nWHERE %s\n  AND %s;\n", w.table(t), w.keyMatch(t), w.guard(t, w.col(t, t.Fence.Name), w.d.token()))
}

func (w *sqlWriter) fenceRead(t *fencedTable) {
	w.printf("\n-- name: %s :one\n", fenceQuery(t))
	fence := w.col(t, t.Fence.Name)
	if fence != w.d.ident(t.Fence.Name) {
		// sqlc names the result after the column as spelled, and a
		// bracketed or backticked spelling is no Go identifier.
		fence += " AS " + w.d.ident(t.Fence.Name)
	}
	w.printf("SELECT %s FROM %s\nWHERE %s;\n", fence, w.table(t), w.keyMatch(t))
}

func (w *sqlWriter) upsert(t *fencedTable) {
	cols := insertColumns(t)
	names := make([]string, 0, len(cols)+1)
	values := make([]string, 0, len(cols)+1)
	for _, c := range cols {
		names = append(names, w.col(t, c.Name))
		values = append(values, w.d.arg(c.Name))
	}
	fence := w.col(t, t.Fence.Name)
	names = append(names, fence)
	values = append(values, w.d.token())
	cmd := ":execrows"
	if w.d.engine == MySQL {
		cmd = ":execresult" // the stale marker travels in LastInsertId
	}
	w.printf("\n-- name: %s %s\n", upsertQuery(t), cmd)
	w.printf("INSERT INTO %s (%s)", w.table(t), strings.Join(names, ", "))
	if keyHasIdentityAlways(t) {
		w.printf(" OVERRIDING SYSTEM VALUE")
	}
	w.printf("\nVALUES (%s)\n", strings.Join(values, ", "))
	if w.d.engine == MySQL {
		w.mysqlOnDuplicate(t)
		return
	}
	keys := make([]string, len(t.Key))
	for i, k := range t.Key {
		keys[i] = w.col(t, k)
	}
	var sets []string
	for _, c := range updateColumns(t) {
		sets = append(sets, fmt.Sprintf("%s = excluded.%s", w.col(t, c.Name), w.col(t, c.Name)))
	}
	sets = append(sets, fmt.Sprintf("%s = excluded.%s", fence, fence))
	// The target row is named by its unqualified table name in DO UPDATE.
	current := w.tableName(t) + "." + fence
	w.printf("ON CONFLICT (%s) DO UPDATE\nSET %s\nWHERE %s;\n", strings.Join(keys, ", "), strings.Join(sets, ", "), w.guard(t, current, "excluded."+fence))
}

// mysqlOnDuplicate renders MySQL's upsert: ON DUPLICATE KEY UPDATE has no
// WHERE, so every assignment keeps the old value unless the fence admits
// the token, and the fence is assigned last because later assignments see
// earlier ones.
//
// The affected-rows count cannot tell a rejected upsert from an insert
// when the connection sets clientFoundRows (both report 1), so the
// rejecting branch also calls LAST_INSERT_ID(mysqlStaleMarker): the
// statement's LastInsertId then says "stale" whatever the connection's
// flags, and no auto-increment column reaches that value.
func (w *sqlWriter) mysqlOnDuplicate(t *fencedTable) {
	fence := w.col(t, t.Fence.Name)
	admit := w.guard(t, fence, "VALUES("+fence+")")
	var sets []string
	for _, c := range updateColumns(t) {
		col := w.col(t, c.Name)
		sets = append(sets, fmt.Sprintf("  %s = IF(%s, VALUES(%s), %s)", col, admit, col, col))
	}
	sets = append(sets, fmt.Sprintf("  %s = IF(%s, VALUES(%s), IF(LAST_INSERT_ID(%s), %s, %s))", fence, admit, fence, mysqlStaleMarker, fence, fence))
	w.printf("ON DUPLICATE KEY UPDATE\n%s;\n", strings.Join(sets, ",\n"))
}

// updateColumns are the columns a fenced write sets besides the fence: not
// the key, not generated, not GENERATED ALWAYS identity.
func updateColumns(t *fencedTable) []*Column {
	var out []*Column
	for _, c := range t.Columns {
		if c == t.Fence || c.Generated || c.IdentityAlways || contains(t.Key, c.Name) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// insertColumns are the columns an upsert inserts besides the fence: every
// non-generated column, except GENERATED ALWAYS identity columns outside the
// key (the database numbers those).
func insertColumns(t *fencedTable) []*Column {
	var out []*Column
	for _, c := range t.Columns {
		if c == t.Fence || c.Generated || c.IdentityAlways && !contains(t.Key, c.Name) {
			continue
		}
		out = append(out, c)
	}
	return out
}

func keyHasIdentityAlways(t *fencedTable) bool {
	for _, k := range t.Key {
		if c := t.Column(k); c != nil && c.IdentityAlways {
			return true
		}
	}
	return false
}

// mysqlStaleMarker is the LastInsertId a rejected MySQL upsert reports:
// 2^64-1, which database/sql drivers return as int64 -1.
const mysqlStaleMarker = "18446744073709551615"

// tokenSources selects the optional token sources (PostgreSQL only).
type tokenSources struct {
	Sequence bool // fence_token_seq and NextToken
	Leases   bool // fence_leases and AcquireLease/RenewLease/ReleaseLease
}

// File names of the token source schemas, written beside fenced.sql so users
// can apply them with their migrations.
const (
	sequenceSchemaFile = "fence_tokens.sql"
	leaseSchemaFile    = "fence_leases.sql"
)

const sequenceSchema = `CREATE SEQUENCE IF NOT EXISTS fence_token_seq AS bigint;
`

const sequenceQueries = `
-- name: fencedNextToken :one
SELECT nextval('fence_token_seq')::bigint AS token;
`

// The lease row is never deleted: release expires it, so the per-name token
// keeps increasing across holders.
const leaseSchema = `CREATE TABLE IF NOT EXISTS fence_leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  token bigint NOT NULL,
  expires_at timestamptz NOT NULL
);
`

const leaseQueries = `
-- name: fencedAcquireLease :one
INSERT INTO fence_leases (name, holder, token, expires_at)
VALUES (sqlc.arg(name), sqlc.arg(holder), 1, now() + sqlc.arg(ttl_ms)::bigint * interval '1 millisecond')
ON CONFLICT (name) DO UPDATE
SET holder = excluded.holder, token = fence_leases.token + 1, expires_at = excluded.expires_at
WHERE fence_leases.expires_at <= now() OR fence_leases.holder = excluded.holder
RETURNING token;

-- name: fencedRenewLease :execrows
UPDATE fence_leases
SET expires_at = now() + sqlc.arg(ttl_ms)::bigint * interval '1 millisecond'
WHERE name = sqlc.arg(name) AND holder = sqlc.arg(holder) AND token = sqlc.arg(token) AND expires_at > now();

-- name: fencedReleaseLease :execrows
UPDATE fence_leases
SET expires_at = '-infinity'
WHERE name = sqlc.arg(name) AND holder = sqlc.arg(holder) AND token = sqlc.arg(token) AND expires_at > now();
`
