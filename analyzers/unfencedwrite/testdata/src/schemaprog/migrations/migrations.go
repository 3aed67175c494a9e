// Package migrations embeds the application's PostgreSQL schema; only its
// main imports it, so the store sees the keys in a standalone run, which
// reads every package of the program.
package migrations

import "embed"

//go:embed *.sql
var FS embed.FS
