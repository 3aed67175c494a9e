// Package gen turns SQL schemas into fenced write queries and typed Go
// wrappers. It is a pure function from inputs (schema sources, options) to
// output files; only cmd/fencegen touches the file system, apart from the
// temporary directory sqlc runs in (removed before Generate returns).
// Generate does the steps below in a child process of the running
// executable (child.go), in which sqlc runs in-process.
//
// # Pipeline
//
//  1. Parse every schema file with a real parser for its dialect
//     (pg_query for PostgreSQL, the TiDB parser for MySQL, SQLite itself for
//     SQLite) into a [Schema]: tables, columns, keys, unique constraints,
//     generated/identity columns, views, with file:line:col positions.
//  2. Pick the fenced tables (a column named "fence" by default; the name is
//     configurable globally and per table) and validate them.
//  3. Render fenced.sql: sqlc-annotated UPDATE, upsert and DELETE per fenced
//     table, plus a fence read used only to label a rejected write.
//  4. Run sqlc on the schema plus fenced.sql for the chosen driver; when
//     it fails (and ends the child), the parent places its messages in the
//     user's files.
//     The users' queries files (Options.Queries) go to sqlc rewritten: each
//     UPDATE, DELETE and INSERT ... ON CONFLICT DO UPDATE (VALUES or SELECT) of a
//     fenced table gets the fence assignment and predicate spliced into its
//     text (pg_query says what the statement is, its scanner where the
//     top-level clauses are; queries.go, queries_rewrite.go) under an
//     unexported name, plus a check query that labels its outcome; other
//     queries pass through. MySQL's INSERT ... ON DUPLICATE KEY UPDATE gets
//     each assignment wrapped in IF(fence admits VALUES(fence), expr, col)
//     and the fence assigned last (queries_mysql.go).
//  5. Render fenced.go: the token-taking API below. The shared code and the
//     users' queries' methods are built with jennifer; each table's
//     writes, most of the file on a large schema, are written as text laid
//     out as gofmt prints it (gotext.go), and jennifer renders only a table
//     outside that form.
//
// # Generated API (contract with testdata/fencegen/e2e)
//
// For CREATE TABLE docs (id bigint PRIMARY KEY, body text NOT NULL, fence bigint)
// the output package holds sqlc's db.go, models.go and fenced.sql.go (built
// from fenced.sql, which is kept in the output), and fenced.go with:
//
//	type Token struct{ n int64 } // a literal does not convert to it
//	func TokenOf(n int64) Token     // from what the lock service handed out
//	func (t Token) Int64() int64
//	func (t Token) String() string
//	var ErrStale = errors.New("stale fencing token")
//	var ErrNotFound = errors.New("no such row")
//	type StaleError struct {
//		Table   string // SQL name as written in the schema, e.g. "docs" or "app.settings"
//		Token   Token  // the rejected token
//		Current *Token // the row's fence when the write was rejected; nil if unknown
//	}
//	func (e *StaleError) Error() string // "stale token 5 for docs: a newer holder already wrote (current fence 7)"
//	func (e *StaleError) Is(target error) bool // true for ErrStale
//	type NotFoundError struct{ Table string }
//	func (e *NotFoundError) Error() string // "no docs row with that key"
//	func (e *NotFoundError) Is(target error) bool // true for ErrNotFound
//	var ErrTokenOutOfRange = errors.New("fencing token out of the fence column's range")
//	type TokenRangeError struct {
//		Table    string
//		Token    Token // the refused token
//		Min, Max int64 // the tokens the fence column stores exactly
//	}
//	func (e *TokenRangeError) Is(target error) bool // true for ErrTokenOutOfRange
//
//	type Fenced struct{ ... }
//	func NewFenced(db DBTX) *Fenced // DBTX is sqlc's interface in db.go
//
//	// Per fenced table; T is sqlc's model name (docs -> Doc, app.settings -> AppSetting).
//	type UpdateDocParams struct{ Body string; ID int64 }  // writable non-key columns, then key columns
//	type UpsertDocParams struct{ ID int64; Body string }  // every writable column except the fence
//	type DeleteDocParams struct{ ID int64 }               // key columns, always a struct
//	func (f *Fenced) UpdateDoc(ctx context.Context, token Token, arg UpdateDocParams) error
//	func (f *Fenced) UpsertDoc(ctx context.Context, token Token, arg UpsertDocParams) error
//	func (f *Fenced) DeleteDoc(ctx context.Context, token Token, arg DeleteDocParams) error
//
//	// Per fenced query of the users' queries files (every engine), named after
//	// the query; XParams are sqlc's params without the token.
//	func (f *Fenced) X(ctx, token Token, arg XParams) error            // :exec
//	func (f *Fenced) X(ctx, token Token, arg XParams) (Written, error) // :execrows
//	func (f *Fenced) X(ctx, token Token, arg XParams) (XRow, error)    // :one (sqlc's row type)
//	func (f *Fenced) X(ctx, token Token, arg XParams) ([]XRow, error)  // :many
//	type Written struct{ Rows, Stale int64 } // Stale > 0 comes with a *StaleError
//
// Field names and Go types are sqlc's (pgtype.Text, sql.NullString, ...), as
// they appear in its generated params structs. The fence column never
// appears in a params struct: the token sets it. Each method returns nil
// when the write applied, a *StaleError when the row's fence is newer than
// the token (or equal, under "<"), and a *NotFoundError when no row has the
// key (Update and Delete only). After a write that affected no row, one
// extra SELECT of the fence labels the error; fencing itself is the single
// guarded statement. A nil error for a write whose token equals the current
// fence under "<=" means the holder rewrote its own row.
//
// A token the fence column cannot store exactly is refused with a
// *TokenRangeError before anything is sent: MySQL's narrower integer types
// (and the unsigned ones, for negative tokens), PostgreSQL's smallint and
// integer, and sqlc's Go type for a nullable MySQL column where it is
// narrower still (sql.NullInt32 for INT UNSIGNED). Narrowing the token would
// store a smaller fence and let an older holder win. SQLite stores every
// integer in 64 bits, so nothing is refused there.
//
// sqlc's own query methods are unexported (fencedUpdateDoc, ...), so the
// writes cannot be called without a token.
//
// Key choice: the primary key, else the first unique constraint whose columns
// are all NOT NULL, in constraint order. Tables without one are skipped with
// a warning (an error listing them when no table is left). Generated columns
// and GENERATED ALWAYS identity columns are never written (upsert of an
// always-identity key uses OVERRIDING SYSTEM VALUE); a table whose key has a
// generated column gets no upsert, with a warning.
//
// MySQL: the generated code is correct with either clientFoundRows setting;
// clientFoundRows=true saves the labelling SELECT when a holder rewrites its
// own row with identical values. Upsert uses ON DUPLICATE KEY UPDATE with
// every assignment guarded by the fence condition and the fence assigned
// last (see the deviations below for how a rejection is detected).
//
// Token sources (options):
//
//	// -sequence: PostgreSQL only; emits fence_tokens.sql with
//	// CREATE SEQUENCE fence_token_seq AS bigint.
//	func (f *Fenced) NextToken(ctx context.Context) (Token, error)
//
//	// -leases: PostgreSQL only; emits fence_leases.sql with
//	// CREATE TABLE fence_leases (name text PRIMARY KEY, holder text NOT NULL,
//	//   token bigint NOT NULL, expires_at timestamptz NOT NULL).
//	// Acquire succeeds when the lease is free, expired, or already held by
//	// holder; it returns a token strictly greater than every token handed out
//	// for that name before (the row is never deleted; release expires it).
//	var ErrLeaseHeld = errors.New("lease held by another holder")
//	var ErrLeaseLost = errors.New("lease expired or taken over")
//	func (f *Fenced) AcquireLease(ctx context.Context, name, holder string, ttl time.Duration) (Token, error) // ErrLeaseHeld
//	func (f *Fenced) RenewLease(ctx context.Context, name, holder string, token Token, ttl time.Duration) error // ErrLeaseLost
//	func (f *Fenced) ReleaseLease(ctx context.Context, name, holder string, token Token) error                // ErrLeaseLost
//
// # Golden packages
//
// testdata/fencegen/golden is a module
// (github.com/fencelint/fencelint/testdata/fencegen/golden) with one
// generated package per case; `go test ./gen/... -update` rewrites them.
// The postgres, mysql and sqlite cases use copies of
// testdata/fencegen/e2e/schema/*.sql (copy again and -update after
// changing those):
//
//	postgres-pgx/pgdb        pgx/v5, "<=", with -sequence and -leases
//	postgres-pgx-lt/pgdb     pgx/v5, "<"
//	postgres-stdlib/pgsqldb  database/sql, "<=", with -sequence and -leases
//	mysql/mysqldb            "<="     mysql-lt/mysqldb   "<"
//	sqlite/sqlitedb          "<="     sqlite-lt/sqlitedb "<"
//	docs/docsdb              the example above
//	custom-fence/customdb    per-table fence columns, warnings, identity keys
//	*generated-key/genkeydb  keys with a generated column: no upsert
//	*-widths/widthsdb        a fence of every integer width and signedness
//	                         (e2e: tokens at and just outside each range)
//	*-queries/querydb        users' queries fenced (-queries): every
//	                         statement form and command (e2e: TestQueries)
//	postgres-types*/typesdb  a column of every type sqlc maps (ranges,
//	                         multiranges, arrays, enums), pgx/v5 and database/sql
//
// # Deviations and details
//
//   - StaleError.Current is a *Token (nil when the row vanished or its
//     fence is NULL by the time it is read).
//   - Delete always takes a params struct (DeleteDocParams), even for a
//     one-column key.
//   - A MySQL upsert is sqlc :execresult: the rejecting branch of ON
//     DUPLICATE KEY UPDATE calls LAST_INSERT_ID(2^64-1), so LastInsertId()
//     == -1 means stale whatever clientFoundRows says (the affected-rows
//     count cannot tell an insert from a rejection when it is set). ON
//     DUPLICATE KEY UPDATE fires on any unique key, not only the chosen one.
//   - A users' MySQL ON DUPLICATE KEY UPDATE query counts the rows its fence
//     rejected in LAST_INSERT_ID, from 2^64-2^32 (a many-row one sets that
//     base with its first row's token), so LastInsertId gives Written.Stale
//     exactly; a many-row one on a table with an AUTO_INCREMENT column is
//     refused (an inserted id would replace the count). The session's
//     LAST_INSERT_ID() after such a statement is that count, not a row id.
//   - A MySQL update that matched no row under "<=" reads the fence: equal to
//     the token means the holder rewrote identical values (reported as 0
//     rows without clientFoundRows), so it returns nil.
//   - SQLite schemas are read by SQLite itself (ncruces/go-sqlite3, the
//     build sqlc's own SQLite analyzer links): sqlc's ANTLR grammar is in an
//     internal package. Column positions on MySQL and SQLite are found by
//     the column's name inside its statement (their parsers record none).
//   - sqlc runs inside a child process of fencegen's own executable that
//     does the whole generation (an init function runs it when
//     FENCEGEN_GENERATE names its working directory; child.go): sqlc's only
//     exported entry point, pkg/cli, ends the process with os.Exit(1) when
//     generation fails. Its messages come back as an *Error
//     placed in the user's schema file, or at the table whose fenced query
//     sqlc could not compile.
package gen
