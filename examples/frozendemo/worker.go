package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"go.uber.org/zap"
)

// What a worker process learns from its environment: where the services
// are, which lock and row this round uses, and how long a lease lasts.
const (
	envEtcd  = "FROZENDEMO_ETCD"
	envRedis = "FROZENDEMO_REDIS"
	envDSN   = "FROZENDEMO_DSN"
	envLock  = "FROZENDEMO_LOCK"
	envRow   = "FROZENDEMO_ROW"
	envTTL   = "FROZENDEMO_TTL"
)

// workerConfig is a worker's view of its environment.
type workerConfig struct {
	etcd, redis, dsn string
	lock             string
	row              int64
	ttl              time.Duration
}

func loadWorkerConfig() (workerConfig, error) {
	row, err := strconv.ParseInt(os.Getenv(envRow), 10, 64)
	if err != nil {
		return workerConfig{}, fmt.Errorf("%s: %w", envRow, err)
	}
	ttl, err := time.ParseDuration(os.Getenv(envTTL))
	if err != nil {
		return workerConfig{}, fmt.Errorf("%s: %w", envTTL, err)
	}
	return workerConfig{
		etcd:  os.Getenv(envEtcd),
		redis: os.Getenv(envRedis),
		dsn:   os.Getenv(envDSN),
		lock:  os.Getenv(envLock),
		row:   row,
		ttl:   ttl,
	}, nil
}

// balanceOf is the balance each worker computed from the ledger: B ran
// after a new entry arrived, so its balance is the right one.
func balanceOf(worker string) int64 {
	if worker == "B" {
		return 150
	}
	return 100
}

// openPool opens the store.
func openPool(ctx context.Context, cfg workerConfig) (*pgxpool.Pool, error) {
	return pgxpool.New(ctx, cfg.dsn)
}

// etcdSession connects to etcd and opens a session whose lease lasts
// cfg.ttl (whole seconds; at least one).
func etcdSession(cfg workerConfig) (*concurrency.Session, func(), error) {
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:   []string{cfg.etcd},
		DialTimeout: 5 * time.Second,
		Logger:      zap.NewNop(),
	})
	if err != nil {
		return nil, nil, err
	}
	ttl := max(1, int(cfg.ttl.Round(time.Second)/time.Second))
	session, err := concurrency.NewSession(cli, concurrency.WithTTL(ttl))
	if err != nil {
		cli.Close()
		return nil, nil, err
	}
	// After a freeze the session's lease is gone; closing it then fails,
	// which changes nothing here.
	return session, func() { session.Close(); cli.Close() }, nil
}

// redsyncMutex returns a redsync mutex on cfg.lock that expires after
// cfg.ttl and is retried long enough to outwait a frozen holder.
func redsyncMutex(cfg workerConfig) (*redsync.Mutex, func()) {
	client := redis.NewClient(&redis.Options{Addr: cfg.redis})
	rs := redsync.New(goredis.NewPool(client))
	m := rs.NewMutex(cfg.lock,
		redsync.WithExpiry(cfg.ttl),
		redsync.WithTries(1000),
		redsync.WithRetryDelay(10*time.Millisecond))
	return m, func() { client.Close() }
}
