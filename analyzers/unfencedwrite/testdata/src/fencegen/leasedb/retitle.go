package leasedb

// This file is the user's own, in the package `sqlc generate` writes with
// fencegen as its plugin and leases: true (the other files are a copy of
// testdata/fencegen/golden/sqlc-plugin-leases/leasedb): a caller here sees
// Fenced.AcquireLease take a lease and ReleaseLease give it up, as callers
// in other packages do.

import (
	"context"
	"time"
)

// Retitle takes fencegen's lease and renames a document with its token;
// sqlc's unfenced Queries.SetDocTitle under the lease is reported, and
// after ReleaseLease it is under no lease.
func Retitle(ctx context.Context, db DBTX, id int64, title string) error {
	f, q := NewFenced(db), New(db)
	token, err := f.AcquireLease(ctx, "docs", "me", 10*time.Second)
	if err != nil {
		return err
	}
	if err := f.SetDocTitle(ctx, token, SetDocTitleParams{ID: id, Title: title}); err != nil {
		return err
	}
	if err := q.SetDocTitle(ctx, SetDocTitleParams{ID: id, Title: title}); err != nil { // want `Queries.SetDocTitle \(DBTX.Exec \(UPDATE docs\) at queries.sql.go:\d+\) writes to SQL database without a fencing token while the PostgreSQL lock taken by Fenced.AcquireLease \(line 19\) is held: .*; fence it: call Fenced.SetDocTitle, fencegen's fenced SetDocTitle, with the lease's token`
		return err
	}
	if err := f.ReleaseLease(ctx, "docs", "me", token); err != nil {
		return err
	}
	return q.SetDocTitle(ctx, SetDocTitleParams{ID: id, Title: title})
}

// Untitle writes under no lease: quiet.
func Untitle(ctx context.Context, db DBTX, id int64) error {
	return New(db).SetDocTitle(ctx, SetDocTitleParams{ID: id})
}
