// Package tokens holds fenced writes whose "token" is not ordered by lease:
// UUIDs, clocks, random numbers, process IDs. The store compares them, but
// a later holder's value can be smaller than an earlier holder's.
package tokens

import (
	"context"
	crand "crypto/rand"
	"database/sql"
	"errors"
	"math/big"
	"math/rand/v2"
	"os"
	"time"

	legacyredis "github.com/go-redis/redis/v8"
	gofrsuuid "github.com/gofrs/uuid/v5"
	"github.com/google/uuid"
	"go.etcd.io/etcd/client/v3/concurrency"
)

var errStale = errors.New("stale writer")

// Writer updates a job row under an etcd mutex.
type Writer struct {
	db *sql.DB
}

func (w *Writer) fenced(ctx context.Context, job string, token any) error {
	res, err := w.db.ExecContext(ctx, `UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2`, job, token)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errStale
	}
	return nil
}

// WithClock stamps the write with the local clock.
func (w *Writer) WithClock(ctx context.Context, m *concurrency.Mutex, job string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return w.fenced(ctx, job, time.Now().UnixNano()) // want weaktoken:"is not a fencing token"
}

// WithUUIDv7 uses a time-ordered UUID; it is ordered by the writer's clock,
// not by the lease.
func (w *Writer) WithUUIDv7(ctx context.Context, m *concurrency.Mutex, job string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	id := uuid.Must(uuid.NewV7())
	return w.fenced(ctx, job, id.String()) // want weaktoken:"is not a fencing token"
}

// WithGofrsUUID uses a random UUID.
func (w *Writer) WithGofrsUUID(ctx context.Context, m *concurrency.Mutex, job string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	id, err := gofrsuuid.NewV4()
	if err != nil {
		return err
	}
	return w.fenced(ctx, job, id.String()) // want weaktoken:"is not a fencing token"
}

// WithRandom uses a random number.
func (w *Writer) WithRandom(ctx context.Context, m *concurrency.Mutex, job string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return w.fenced(ctx, job, rand.Int64()) // want weaktoken:"is not a fencing token"
}

// WithCryptoRandom uses a random big integer.
func (w *Writer) WithCryptoRandom(ctx context.Context, m *concurrency.Mutex, job string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	n, err := crand.Int(crand.Reader, big.NewInt(1<<62))
	if err != nil {
		return err
	}
	return w.fenced(ctx, job, n.Int64()) // want weaktoken:"is not a fencing token"
}

// WithPID uses the process ID.
func (w *Writer) WithPID(ctx context.Context, m *concurrency.Mutex, job string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return w.fenced(ctx, job, os.Getpid()) // want weaktoken:"is not a fencing token"
}

// WithRevision uses the mutex's revision: a real token.
func (w *Writer) WithRevision(ctx context.Context, m *concurrency.Mutex, job string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return w.fenced(ctx, job, m.Header().Revision)
}

// LegacyLock is a hand-rolled lock on the old go-redis import path.
func LegacyLock(ctx context.Context, rdb *legacyredis.Client, job string) error {
	ok, err := rdb.SetNX(ctx, "lock:"+job, uuid.NewString(), 30*time.Second).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer rdb.Del(ctx, "lock:"+job)
	return rdb.Set(ctx, "job:"+job+":state", "done", 0).Err() // want unfencedwrite:"without a fencing token"
}
