// Package patterns holds the control-flow shapes lock code takes in real
// services: per-item locks in loops, writes on the failure path of an
// acquire, writes after the release, and a helper that runs a callback
// under the lock.
package patterns

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"

	"github.com/go-redsync/redsync/v4"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Shards migrates shards one lock at a time.
type Shards struct {
	session *concurrency.Session
	db      *sql.DB
}

// MigrateAll locks each shard in turn; the write inside each iteration is
// under that shard's lock, the audit row after the release is not.
func (s *Shards) MigrateAll(ctx context.Context, shards []string) error {
	for _, shard := range shards {
		m := concurrency.NewMutex(s.session, "/locks/shard/"+shard)
		if err := m.TryLock(ctx); err != nil {
			if errors.Is(err, concurrency.ErrLocked) {
				continue
			}
			return err
		}
		_, err := s.db.ExecContext(ctx, `UPDATE shards SET schema_version = schema_version + 1 WHERE name = $1`, shard) // want unfencedwrite:"without a fencing token"
		if uerr := m.Unlock(ctx); uerr != nil {
			log.Printf("unlock %s: %v", shard, uerr)
		}
		if err != nil {
			return err
		}
		if _, err := s.db.ExecContext(ctx, `INSERT INTO audit (event) VALUES ($1)`, "migrated "+shard); err != nil {
			return err
		}
	}
	return nil
}

// MigrateOne records a failed acquisition: that write is made without the
// lock, so it is nobody's stale write.
func (s *Shards) MigrateOne(ctx context.Context, shard string) error {
	m := concurrency.NewMutex(s.session, "/locks/shard/"+shard)
	if err := m.Lock(ctx); err != nil {
		if _, aerr := s.db.ExecContext(ctx, `INSERT INTO audit (event) VALUES ($1)`, "lock failed "+shard); aerr != nil {
			log.Printf("audit: %v", aerr)
		}
		return fmt.Errorf("lock %s: %w", shard, err)
	}
	defer m.Unlock(ctx)
	res, err := s.db.ExecContext(ctx,
		`UPDATE shards SET schema_version = schema_version + 1, fence = $2 WHERE name = $1 AND fence < $2`,
		shard, m.Header().Revision)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errors.New("migrate: stale shard lock")
	}
	return nil
}

// Locker is the helper teams write so that callers cannot forget to unlock.
type Locker struct {
	rs *redsync.Redsync
}

// WithLock runs fn while holding the named redsync mutex.
func (l *Locker) WithLock(ctx context.Context, name string, fn func(context.Context) error) error {
	m := l.rs.NewMutex(name)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(context.Background())
	return fn(ctx)
}

// Refund runs its write inside WithLock's callback: still under the lock,
// still unfenced.
func Refund(ctx context.Context, l *Locker, db *sql.DB, order string) error {
	return l.WithLock(ctx, "order:"+order, func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, `UPDATE orders SET state = 'refunded' WHERE id = $1`, order) // want unfencedwrite:"without a fencing token"
		return err
	})
}

// Quote only reads inside the callback.
func Quote(ctx context.Context, l *Locker, db *sql.DB, order string) (int64, error) {
	var total int64
	err := l.WithLock(ctx, "order:"+order, func(ctx context.Context) error {
		return db.QueryRowContext(ctx, `SELECT total FROM orders WHERE id = $1`, order).Scan(&total)
	})
	return total, err
}
