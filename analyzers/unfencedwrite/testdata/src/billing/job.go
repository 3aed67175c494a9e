package billing

import (
	"context"
	"errors"

	"sqlcstore"
)

var errLost = errors.New("lost the lease: a newer holder wrote first")

type job struct {
	q *sqlcstore.Queries
}

// run writes through sqlc's unfenced query while holding the lease: the
// report names the inner write in the other package.
func (j *job) run(ctx context.Context) error {
	l := &Lease{name: "billing"}
	if _, err := l.Acquire(ctx); err != nil {
		return err
	}
	defer l.Release(ctx)
	return j.q.UpdateDoc(ctx, sqlcstore.UpdateDocParams{Body: "x", ID: 1}) // want `Queries.UpdateDoc \(DBTX.ExecContext \(UPDATE docs\) at query.sql.go:\d+\) writes to SQL database without a fencing token while the lease taken by Lease.Acquire \(line 20\) is held`
}

// runFenced passes the lease's token to the fenced query: quiet.
func (j *job) runFenced(ctx context.Context) error {
	l, tok, err := acquireJobLease(ctx)
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	n, err := j.q.UpdateDocFenced(ctx, sqlcstore.UpdateDocFencedParams{Body: "x", Fence: tok, ID: 1})
	if err != nil {
		return err
	}
	if n == 0 {
		return errLost
	}
	return nil
}

// runWrapped acquires through a wrapper and writes in a closure it calls.
func (j *job) runWrapped(ctx context.Context) error {
	l, _, err := acquireJobLease(ctx)
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	return retry(func() error {
		return j.q.UpdateDoc(ctx, sqlcstore.UpdateDocParams{Body: "y", ID: 2}) // want `Queries.UpdateDoc .* while the lease taken by billing.acquireJobLease \(line 46\) is held`
	})
}

// readOnly reads under the lease: reads are not writes.
func (j *job) readOnly(ctx context.Context) (string, error) {
	l, _, err := acquireJobLease(ctx)
	if err != nil {
		return "", err
	}
	defer l.Release(ctx)
	return j.q.GetDoc(ctx, 1)
}

// ignored is reviewed and silenced.
func (j *job) ignored(ctx context.Context) error {
	l, _, err := acquireJobLease(ctx)
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	//fencelint:ignore the docs row is rewritten whole by every holder, last write wins by design
	return j.q.UpdateDoc(ctx, sqlcstore.UpdateDocParams{Body: "z", ID: 3})
}

func retry(f func() error) error { return f() }
