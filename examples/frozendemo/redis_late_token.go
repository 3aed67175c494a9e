package main

import (
	"context"
	"errors"

	"github.com/fencelint/fencelint/examples/frozendemo/store"
	"github.com/fencelint/fencelint/fencetest"
)

// redisLateToken holds a redsync mutex and fences its write with a token
// drawn from a sequence after acquiring: the trap. A holder frozen between
// acquiring and drawing draws a newer token than the holder that replaced
// it, and its stale write wins.
var redisLateToken = register(variant{
	name:    "redis-late-token",
	title:   "a redsync mutex, then nextval drawn after acquiring as the token",
	fenced:  false,
	guard:   "late token",
	service: "redis",
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
		m, closeRedis := redsyncMutex(cfg)
		defer closeRedis()

		if err := m.LockContext(ctx); err != nil {
			return err
		}
		defer m.UnlockContext(context.WithoutCancel(ctx))
		w.Acquired(0)
		var token int64
		if err := pool.QueryRow(ctx, "SELECT nextval('fence_token_seq')").Scan(&token); err != nil {
			return err
		}
		w.Note("drew a token (nextval)", token)
		err = store.NewFenced(pool).UpdateBalance(ctx, store.TokenOf(token), store.UpdateBalanceParams{
			ID: cfg.row, Amount: balanceOf(w.Name()), WrittenBy: w.Name(),
		})
		if errors.Is(err, store.ErrStale) {
			w.Wrote(token, 0)
			return err
		}
		if err != nil {
			return err
		}
		w.Wrote(token, 1)
		return nil
	},
})
