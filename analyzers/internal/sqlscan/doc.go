// Package sqlscan reads the SQL text passed to database/sql and pgx calls
// well enough for the fencelint lease model to tell whether a write is
// fenced: which statements write which table, which placeholders they
// store, which comparisons reject a stale fencing token, and which lock,
// sequence and clock functions they call.
//
// It is a tokenizer plus a shallow reader of statement structure, not a SQL
// parser: it knows PostgreSQL, MySQL/MariaDB and SQLite quoting, comments,
// dollar quoting and placeholders exactly, and the clauses of UPDATE,
// DELETE, INSERT (with ON CONFLICT and ON DUPLICATE KEY UPDATE), MERGE and
// WITH well enough to find the fence predicates, and names the MySQL
// statements that change a server's replication or role (CHANGE MASTER,
// STOP SLAVE, SET GLOBAL read_only). Anything it does not
// understand is reported as Unknown rather than guessed at: the analyzer
// would rather miss a bug than cry wolf.
//
// The package uses only the standard library, never panics, and keeps no
// state between calls.
package sqlscan
