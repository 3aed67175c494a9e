// Package directives exercises fencelint's directives, right and wrong.
package directives

import (
	"context"
	"database/sql"
)

// Lock is a lease from the team's lock service.
type Lock struct{}

// Acquire takes the lease.
//
//fencelint:acquire
func (l *Lock) Acquire(ctx context.Context) error { return nil }

// Release gives it up.
//
//fencelint:release
func (l *Lock) Release(ctx context.Context) error { return nil }

// Misspelled directive.
//
//fencelint:aquire // want `unknown directive //fencelint:aquire; known: acquire, release, renew, check, token, write, fenced, ignore`
func misspelled() {}

// A role directive with an argument.
//
//fencelint:token rev // want `//fencelint:token takes no argument; remove "rev"`
func withArg() int64 { return 0 }

func body(ctx context.Context, db *sql.DB, l *Lock) error {
	//fencelint:check // want `//fencelint:check must be in the doc comment of a function or of an interface method, directly above it`
	if err := l.Acquire(ctx); err != nil {
		return err
	}
	defer l.Release(ctx)
	//fencelint:ignore the table is append-only and rows carry the run id
	if _, err := db.ExecContext(ctx, `INSERT INTO runs (at) VALUES (now())`); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `INSERT INTO runs (at) VALUES (now())`) //fencelint:ignore // want `//fencelint:ignore needs a reason`
	var n int
	//fencelint:ignore nothing here writes // want `this //fencelint:ignore covers no write, lease, check or renewal`
	n++
	_ = n
	// fencelint:ignore spaced out // want `fencelint directives are written with no space after //: use //fencelint:ignore`
	return err
}
