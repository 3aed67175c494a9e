// Package sqlite3 stands for mattn/go-sqlite3, the SQLite driver the
// localsqlite fixture imports: only its import path matters.
package sqlite3
