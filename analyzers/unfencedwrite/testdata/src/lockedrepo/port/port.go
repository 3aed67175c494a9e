// Package port declares the repository the commands use.
package port

import "context"

// Backtest is the stored state of one backtest.
type Backtest struct {
	ID     uint
	Tick   int
	Orders []string
}

// Repository stores backtests. LockedBacktest runs fn while it holds the
// backtest's lock; Each calls fn for every stored backtest.
type Repository interface {
	Read(ctx context.Context, id uint) (Backtest, error)
	Update(ctx context.Context, bt Backtest) error
	LockedBacktest(id uint, fn func() error) error
	Each(ctx context.Context, fn func(Backtest) error) error
}

// Job is a periodical job.
type Job interface {
	Work(ctx context.Context) error
}
