// Package redisrepo implements the repository on Redis, with a redsync
// mutex per backtest.
package redisrepo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"

	"lockedrepo/port"
)

type Repo struct {
	client *redis.Client
	rs     *redsync.Redsync
}

func New(client *redis.Client, rs *redsync.Redsync) *Repo { return &Repo{client: client, rs: rs} }

func key(id uint) string { return fmt.Sprintf("backtest:%d", id) }

func (r *Repo) Read(ctx context.Context, id uint) (port.Backtest, error) {
	var bt port.Backtest
	s, err := r.client.Get(ctx, key(id)).Result()
	if err != nil {
		return bt, err
	}
	return bt, json.Unmarshal([]byte(s), &bt)
}

func (r *Repo) Update(ctx context.Context, bt port.Backtest) error {
	b, err := json.Marshal(bt)
	if err != nil {
		return err
	}
	return r.client.Set(ctx, key(bt.ID), b, 0).Err()
}

func (r *Repo) LockedBacktest(id uint, fn func() error) error {
	m := r.rs.NewMutex(fmt.Sprintf("backtest-lock:%d", id))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	return fn()
}

func (r *Repo) Each(ctx context.Context, fn func(port.Backtest) error) error {
	list, err := r.client.Get(ctx, "backtests").Result()
	if err != nil {
		return err
	}
	var ids []uint
	if err := json.Unmarshal([]byte(list), &ids); err != nil {
		return err
	}
	for _, id := range ids {
		bt, err := r.Read(ctx, id)
		if err != nil {
			return err
		}
		if err := fn(bt); err != nil {
			return err
		}
	}
	return nil
}
