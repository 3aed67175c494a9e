// Package migrations embeds the application's PostgreSQL schema; only its
// main imports it, so the store sees the keys in a standalone run, which
// reads every package of the program. One step is written in Go: what it
// does to the tables defined before it is out of sight.
package migrations

import "embed"

//go:embed *.sql 0002_rekey.up.go
var FS embed.FS
