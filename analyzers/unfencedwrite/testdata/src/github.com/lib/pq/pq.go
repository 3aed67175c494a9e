// Package pq stands for lib/pq, the PostgreSQL driver the sharedsql
// fixture imports beside SQLite's: only its import path matters.
package pq
