// Package commands changes backtests through the repository port; it does
// not import the implementations, which main wires in.
package commands

import (
	"context"

	"lockedrepo/port"
)

type Handler struct{ repo port.Repository }

func New(repo port.Repository) *Handler { return &Handler{repo: repo} }

// Advance moves the backtest one tick under its lock: a read-modify-write
// of the whole document, which a holder paused past the lock's expiry
// writes over the next holder's.
func (h *Handler) Advance(ctx context.Context, id uint) error {
	return h.repo.LockedBacktest(id, func() error {
		bt, err := h.repo.Read(ctx, id)
		if err != nil {
			return err
		}
		bt.Tick++
		return h.repo.Update(ctx, bt) // want `Repository.Update \(Set at redisrepo.go:\d+, via \*redisrepo.Repo.Update\) writes to Redis without a fencing token while the redsync lock taken by Mutex.Lock that LockedBacktest holds`
	})
}

// Report reads every backtest; the func Each calls runs under no lock.
func (h *Handler) Report(ctx context.Context) error {
	return h.repo.Each(ctx, func(bt port.Backtest) error {
		bt.Orders = nil
		return h.repo.Update(ctx, bt)
	})
}

// Tick runs a job, then records the tick. Most jobs take no lock, so a
// call of Work is no acquire and the record is not made under one.
func (h *Handler) Tick(ctx context.Context, job port.Job) error {
	if err := job.Work(ctx); err != nil {
		return err
	}
	return h.repo.Update(ctx, port.Backtest{ID: 0})
}
