package main

import (
	"context"
	"errors"

	"go.etcd.io/etcd/client/v3/concurrency"

	"github.com/fencelint/fencelint/examples/frozendemo/store"
	"github.com/fencelint/fencelint/fencetest"
)

// etcdFenced holds an etcd mutex and writes through fencegen's wrapper with
// the mutex's revision as the token: the store refuses a stale holder.
var etcdFenced = register(variant{
	name:    "etcd-fenced",
	title:   "an etcd mutex, its revision as the token of fencegen's UpdateBalance",
	fenced:  true,
	guard:   "fenced",
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
		// The revision at which this holder got the mutex: every later
		// holder's is greater.
		token := store.TokenOf(m.Header().Revision)
		w.Acquired(token.Int64())
		err = store.NewFenced(pool).UpdateBalance(ctx, token, store.UpdateBalanceParams{
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
