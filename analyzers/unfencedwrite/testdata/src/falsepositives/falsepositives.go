// Package falsepositives holds code that looks like a lease at a glance and
// is not one: each function here must stay silent.
package falsepositives

import (
	"context"
	"database/sql"
	"time"

	"github.com/redis/go-redis/v9"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Elector campaigns in the background; IsLeader says how it went.
type Elector struct {
	e      *concurrency.Election
	leader chan struct{}
}

// NewElector starts the election loop and returns at once: it does not hold
// the lease when it returns, so it is no acquire wrapper.
func NewElector(ctx context.Context, cli *clientv3.Client, id string) (*Elector, error) {
	s, err := concurrency.NewSession(cli)
	if err != nil {
		return nil, err
	}
	el := &Elector{e: concurrency.NewElection(s, "/election/app"), leader: make(chan struct{})}
	go func() {
		if err := el.e.Campaign(ctx, id); err == nil {
			close(el.leader)
		}
	}()
	return el, nil
}

// NewElectorMethod starts a method that campaigns, with the same meaning.
func NewElectorMethod(ctx context.Context, cli *clientv3.Client, id string) (*Elector, error) {
	s, err := concurrency.NewSession(cli)
	if err != nil {
		return nil, err
	}
	el := &Elector{e: concurrency.NewElection(s, "/election/app"), leader: make(chan struct{})}
	go el.campaign(ctx, id)
	return el, nil
}

func (el *Elector) campaign(ctx context.Context, id string) {
	if err := el.e.Campaign(ctx, id); err == nil {
		close(el.leader)
	}
}

// Boot builds the elector, then writes its startup record: no lease is
// held here (the election runs in the background).
func Boot(ctx context.Context, cli *clientv3.Client, db *sql.DB) error {
	if _, err := NewElector(ctx, cli, "node-1"); err != nil {
		return err
	}
	if _, err := NewElectorMethod(ctx, cli, "node-1"); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `INSERT INTO boots (node, at) VALUES ($1, now())`, "node-1")
	return err
}

// SeedCounter sets the invoice counter's start once. SETNX with no expiry
// is a create-only write, not a lock: the writes after it hold nothing.
func SeedCounter(ctx context.Context, rdb *redis.Client) error {
	if err := rdb.SetNX(ctx, "invoice:seq", 1000, 0).Err(); err != nil {
		return err
	}
	return rdb.Set(ctx, "invoice:seeded-at", time.Now().Unix(), 0).Err()
}

// SeedFlag marks a migration done if nobody did, keeping any TTL.
func SeedFlag(ctx context.Context, rdb *redis.Client) error {
	ok, err := rdb.SetNX(ctx, "migrations:42", "done", redis.KeepTTL).Result()
	if err != nil || !ok {
		return err
	}
	return rdb.HSet(ctx, "migrations", "42", time.Now().Unix()).Err()
}
