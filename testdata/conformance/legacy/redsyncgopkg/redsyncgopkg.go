// Package redsyncgopkg takes redsync locks through gopkg.in/redsync.v1, the
// first import path of redsync, on pools of github.com/garyburd/redigo (the
// original path of gomodule/redigo, which redsync.v1's Pool returns), and
// writes Redis with that redigo.
package redsyncgopkg

import (
	"context"
	"database/sql"
	"log"
	"time"

	"github.com/garyburd/redigo/redis"
	redsync "gopkg.in/redsync.v1"
)

// Reviewer posts each pull request's review comments once, under a
// per-repository redsync lock (8 s expiry, never extended).
type Reviewer struct {
	rs   *redsync.Redsync
	pool *redis.Pool
	db   *sql.DB
}

// NewReviewer wires redsync to the redigo pool, as redsync.v1 takes it.
func NewReviewer(pool *redis.Pool, db *sql.DB) *Reviewer {
	return &Reviewer{rs: redsync.New([]redsync.Pool{pool}), pool: pool, db: db}
}

// Record notes the posted comments: the check and the write are atomic
// only while the lock is held, so a reviewer paused past the expiry posts
// and records them a second time.
func (r *Reviewer) Record(repo, line string) error {
	m := r.rs.NewMutex(repo, redsync.SetExpiry(8*time.Second))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	conn := r.pool.Get()
	defer conn.Close()
	seen, err := redis.Bool(conn.Do("SISMEMBER", "commented:"+repo, line))
	if err != nil || seen {
		return err
	}
	if _, err := conn.Do("SADD", "commented:"+repo, line); err != nil { // want unfencedwrite:"Do SADD writes to Redis without a fencing token"
		return err
	}
	if err := conn.Send("HINCRBY", "comments", repo, 1); err != nil { // want unfencedwrite:"Send HINCRBY writes to Redis without a fencing token"
		return err
	}
	return conn.Flush()
}

// Seen only reads and publishes under the lock: nothing to fence.
func (r *Reviewer) Seen(repo, line string) (bool, error) {
	m := r.rs.NewMutex(repo)
	if err := m.Lock(); err != nil {
		return false, err
	}
	defer m.Unlock()
	conn := r.pool.Get()
	defer conn.Close()
	seen, err := redis.Bool(conn.Do("SISMEMBER", "commented:"+repo, line))
	if err != nil {
		return false, err
	}
	_, err = conn.Do("PUBLISH", "reviews", repo)
	return seen, err
}

// Retract removes a comment in WATCH/MULTI/EXEC on the repository's
// version key: EXEC fails when another reviewer changed it meanwhile.
func (r *Reviewer) Retract(repo, line string) error {
	m := r.rs.NewMutex(repo)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	conn := r.pool.Get()
	defer conn.Close()
	if _, err := conn.Do("WATCH", "version:"+repo); err != nil {
		return err
	}
	if err := conn.Send("MULTI"); err != nil {
		return err
	}
	if err := conn.Send("SREM", "commented:"+repo, line); err != nil {
		return err
	}
	_, err := conn.Do("EXEC")
	return err
}

// Store writes SQL with a fence the caller passes and the database
// compares: a hard negative beside the Redis writes.
func (r *Reviewer) Store(repo string, fence int64) error {
	m := r.rs.NewMutex(repo)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	res, err := r.db.Exec(`UPDATE reviews SET posted = true, fence = $2 WHERE repo = $1 AND fence < $2`, repo, fence)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return sql.ErrNoRows
	}
	return nil
}

// Rebuild keeps the lock alive from a goroutine that gives up silently
// (redsync.v1's Extend returns only a bool): the rebuild goes on writing
// after the lock is gone.
func (r *Reviewer) Rebuild(repo string, lines []string) error {
	m := r.rs.NewMutex("rebuild:"+repo, redsync.SetExpiry(10*time.Second))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	done := make(chan struct{})
	defer close(done)
	go func() { // want detachedrenewal:"never hears"
		t := time.NewTicker(3 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if !m.Extend() {
					log.Printf("rebuild %s: extend failed", repo)
					return
				}
			}
		}
	}()
	conn := r.pool.Get()
	defer conn.Close()
	for _, line := range lines {
		if _, err := conn.Do("SADD", "commented:"+repo, line); err != nil { // want unfencedwrite:"Do SADD writes to Redis without a fencing token"
			return err
		}
	}
	return nil
}

// RebuildWithCancel stops the work when an extension fails: the writes are
// still unfenced, but the renewal is wired to the work.
func (r *Reviewer) RebuildWithCancel(ctx context.Context, repo string, lines []string) error {
	m := r.rs.NewMutex("rebuild:"+repo, redsync.SetExpiry(10*time.Second))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		t := time.NewTicker(3 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if !m.Extend() {
					cancel()
					return
				}
			}
		}
	}()
	conn := r.pool.Get()
	defer conn.Close()
	for _, line := range lines {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := conn.Do("SADD", "commented:"+repo, line); err != nil { // want unfencedwrite:"Do SADD writes to Redis without a fencing token"
			return err
		}
	}
	return nil
}
