// Package sqlitetest opens throwaway SQLite databases, in temporary files,
// through the pure-Go driver modernc.org/sqlite (driver name "sqlite").
package sqlitetest

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// DSN returns the DSN of a fresh database file in tb's temporary directory.
// Writers wait for the lock (busy_timeout) instead of failing with
// SQLITE_BUSY, and transactions take the write lock when they begin, so
// concurrent writers queue instead of deadlocking on lock upgrades. WAL with
// synchronous=NORMAL skips the fsync per commit, which would otherwise make
// contention tests crawl; durability across power loss is no concern here.
func DSN(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "test.db")
	return "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)&_txlock=immediate"
}

// Open opens a fresh database for tb and closes it in tb.Cleanup. It fails
// tb if the database cannot be created.
func Open(tb testing.TB) *sql.DB {
	tb.Helper()
	db, err := sql.Open("sqlite", DSN(tb))
	if err != nil {
		tb.Fatalf("sqlitetest: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	if err := create(context.Background(), db); err != nil {
		tb.Fatalf("sqlitetest: %v", err)
	}
	return db
}

// create forces the file into existence so a broken path or driver fails
// here, at Open, and not in the middle of the test.
func create(ctx context.Context, db *sql.DB) error {
	var mode string
	if err := db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return fmt.Errorf("create database: %w", err)
	}
	if mode != "wal" {
		return fmt.Errorf("create database: journal_mode is %q, want wal", mode)
	}
	return nil
}
