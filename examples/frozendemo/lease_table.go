package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/fencelint/fencelint/examples/frozendemo/store"
	"github.com/fencelint/fencelint/fencetest"
)

// leaseTable takes fencegen's PostgreSQL lease, which hands out the token in
// the acquiring statement, and writes through fencegen's wrapper with it.
var leaseTable = register(variant{
	name:    "lease-table",
	title:   "fencegen's lease table, the token handed out by the acquiring statement",
	fenced:  true,
	guard:   "fenced",
	service: "postgres",
	work: func(ctx context.Context, w *fencetest.Worker) error {
		cfg, err := loadWorkerConfig()
		if err != nil {
			return err
		}
		pool, err := openPool(ctx, cfg)
		if err != nil {
			return err
		}
		defer pool.Close()
		f := store.NewFenced(pool)

		holder := fmt.Sprintf("%s/%d", w.Name(), os.Getpid())
		token, err := acquireLease(ctx, f, cfg.lock, holder, cfg.ttl)
		if err != nil {
			return err
		}
		defer f.ReleaseLease(context.WithoutCancel(ctx), cfg.lock, holder, token)
		w.Acquired(token.Int64())
		err = f.UpdateBalance(ctx, token, store.UpdateBalanceParams{
			ID: cfg.row, Amount: balanceOf(w.Name()), WrittenBy: w.Name(),
		})
		if errors.Is(err, store.ErrStale) {
			w.Wrote(token.Int64(), 0)
			return err
		}
		if err != nil {
			return err
		}
		w.Wrote(token.Int64(), 1)
		return nil
	},
})

// acquireLease waits for the lease to be free or expired and takes it.
func acquireLease(ctx context.Context, f *store.Fenced, name, holder string, ttl time.Duration) (store.Token, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		token, err := f.AcquireLease(ctx, name, holder, ttl)
		if !errors.Is(err, store.ErrLeaseHeld) {
			return token, err
		}
		select {
		case <-ctx.Done():
			return store.Token{}, fmt.Errorf("lease %q still held: %w", name, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}
