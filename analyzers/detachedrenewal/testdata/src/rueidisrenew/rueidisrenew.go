// Package rueidisrenew holds rueidislock locks while it writes. The
// Locker keeps each lock alive itself and cancels the context it returned
// once the lock is lost: work that runs on that context hears of it.
package rueidisrenew

import (
	"context"
	"database/sql"
	"os"

	"github.com/redis/rueidis/rueidislock"
)

type store struct {
	locker rueidislock.Locker
	db     *sql.DB
}

// saveDiscarded throws the lock's context away and writes on the caller's.
func (s *store) saveDiscarded(ctx context.Context, id, body string) error {
	_, cancel, err := s.locker.TryWithContext(ctx, "doc:"+id) // want `this discards the context Locker.TryWithContext returns, which is canceled when the lock is lost, so the work never hears of it and the write at line 26 goes on; run the work on the ctx the Locker returns \(it is canceled when the lock is lost\), and fence the write`
	if err != nil {
		return err
	}
	defer cancel()
	_, err = s.db.ExecContext(ctx, "UPDATE docs SET body = $1 WHERE id = $2", body, id)
	return err
}

// saveOnLockCtx runs the write on the lock's context: still unfenced (the
// unfencedwrite check says so), but it hears that the lock is gone.
func (s *store) saveOnLockCtx(ctx context.Context, id, body string) error {
	ctx, cancel, err := s.locker.WithContext(ctx, "doc:"+id)
	if err != nil {
		return err
	}
	defer cancel()
	_, err = s.db.ExecContext(ctx, "UPDATE docs SET body = $1 WHERE id = $2", body, id)
	return err
}

// saveFenced discards the context, but its one write is fenced: losing the
// lock loses nothing.
func (s *store) saveFenced(ctx context.Context, id, body string, token int64) error {
	_, cancel, err := s.locker.WithContext(ctx, "doc:"+id)
	if err != nil {
		return err
	}
	defer cancel()
	res, err := s.db.ExecContext(ctx, "UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3", body, id, token)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return rueidislock.ErrNotLocked
	}
	return nil
}

// compact discards the context and writes nothing a fence protects.
func (s *store) compact(ctx context.Context, dir string) error {
	_, cancel, err := s.locker.TryWithContext(ctx, "compact")
	if err != nil {
		return err
	}
	defer cancel()
	_, err = os.ReadDir(dir)
	return err
}
