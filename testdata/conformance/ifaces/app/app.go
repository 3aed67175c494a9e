// Package app is a billing service written against its own interfaces; the
// PostgreSQL repository and the redsync locker that main wires in live in
// sibling packages app does not import. A standalone run resolves the calls
// through the interfaces to them.
package app

import (
	"context"
	"errors"
)

// Invoice is one invoice.
type Invoice struct {
	ID     int64
	Amount int64
	Status string
}

// Repo is the invoices' repository.
type Repo interface {
	Invoice(ctx context.Context, id int64) (Invoice, error)
	MarkPaid(ctx context.Context, id int64) error
	SetStatus(ctx context.Context, id int64, status string, fence int64) error
}

// Locker takes named distributed locks.
type Locker interface {
	Obtain(ctx context.Context, key string) (Unlocker, error)
}

// Unlocker gives a lock back.
type Unlocker interface {
	Release(ctx context.Context) error
}

// ErrStale says a newer holder already wrote.
var ErrStale = errors.New("stale fence")

// Biller settles invoices, one biller per invoice at a time.
type Biller struct {
	repo   Repo
	locker Locker
}

// New wires a biller.
func New(repo Repo, locker Locker) *Biller { return &Biller{repo: repo, locker: locker} }

// Settle marks the invoice paid under the lock, through the repository
// interface: the PostgreSQL implementation writes with no fence.
func (b *Biller) Settle(ctx context.Context, id int64) error {
	l, err := b.locker.Obtain(ctx, "invoice")
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	inv, err := b.repo.Invoice(ctx, id)
	if err != nil || inv.Status == "paid" {
		return err
	}
	return b.repo.MarkPaid(ctx, id) // want unfencedwrite:"Repo.MarkPaid \\(Conn.Exec \\(UPDATE invoices\\) at pgrepo.go:\\d+, via \\*pgrepo.Repo.MarkPaid\\) writes to PostgreSQL without a fencing token while the redsync lock taken by Locker.Obtain \\(via \\*locking.Redsync.Obtain\\)"
}

// SetStatus passes the caller's fence to the fenced implementation.
func (b *Biller) SetStatus(ctx context.Context, id int64, status string, fence int64) error {
	l, err := b.locker.Obtain(ctx, "invoice")
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	return b.repo.SetStatus(ctx, id, status, fence)
}
