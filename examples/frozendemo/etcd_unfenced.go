package main

import (
	"context"

	"go.etcd.io/etcd/client/v3/concurrency"

	"github.com/fencelint/fencelint/fencetest"
)

// etcdUnfenced holds an etcd mutex around a plain UPDATE: the bug.
var etcdUnfenced = register(variant{
	name:    "etcd-unfenced",
	title:   "an etcd mutex around a plain UPDATE",
	fenced:  false,
	guard:   "unfenced",
	service: "etcd",
	work: func(ctx context.Context, w *fencetest.Worker) error {
		cfg, err := loadWorkerConfig()
		if err != nil {
			return err
		}
		session, closeSession, err := etcdSession(cfg)
		if err != nil {
			return err
		}
		defer closeSession()
		pool, err := openPool(ctx, cfg)
		if err != nil {
			return err
		}
		defer pool.Close()

		m := concurrency.NewMutex(session, cfg.lock)
		if err := m.Lock(ctx); err != nil {
			return err
		}
		defer m.Unlock(context.WithoutCancel(ctx))
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
