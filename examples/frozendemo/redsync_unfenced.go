package main

import (
	"context"

	"github.com/fencelint/fencelint/fencetest"
)

// redsyncUnfenced holds a redsync mutex around a plain UPDATE: the bug.
var redsyncUnfenced = register(variant{
	name:    "redsync-unfenced",
	title:   "a redsync mutex around a plain UPDATE",
	fenced:  false,
	guard:   "unfenced",
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
		// After a freeze the lock has expired and unlocking fails.
		defer m.UnlockContext(context.WithoutCancel(ctx))
		w.Acquired(0)
		tag, err := pool.Exec(ctx, "UPDATE balances SET amount = $2, written_by = $3 WHERE id = $1",
			cfg.row, balanceOf(w.Name()), w.Name())
		if err != nil {
			return err
		}
		w.Wrote(0, tag.RowsAffected())
		return nil
	},
})
