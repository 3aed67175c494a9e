// Package cachefills holds services that take a stampede lock so that one
// replica at a time loads an entry into the cache. The fill, written only
// when the read of the same key just before missed, with an expiry, is a
// cache's: a stale holder's late fill lives until the TTL at most. A
// read-modify-write, a write made when the read hit, a first-use create
// with no expiry and a write of a key nobody read stay reported.
package cachefills

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"

	"cachefills/cache"
)

type Profiles struct {
	rdb    *redis.Client
	locker *redislock.Client
	db     *sql.DB
	store  *cache.Store
}

// Profile reads the profile from the cache, and on a miss loads it and
// fills the entry: quiet.
func (p *Profiles) Profile(ctx context.Context, id string) (string, error) {
	key := "profile:" + id
	lock, err := p.locker.Obtain(ctx, "lock:"+key, 5*time.Second, nil)
	if err != nil {
		return "", err
	}
	defer lock.Release(ctx)
	v, err := p.rdb.Get(ctx, key).Result()
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, redis.Nil) {
		return "", err
	}
	if err := p.db.QueryRowContext(ctx, "SELECT body FROM profiles WHERE id = $1", id).Scan(&v); err != nil {
		return "", err
	}
	p.rdb.Set(ctx, key, v, time.Minute)
	return v, nil
}

// Avatar tests the command's error before its value: quiet.
func (p *Profiles) Avatar(ctx context.Context, id string) (string, error) {
	key := "avatar:" + id
	lock, err := p.locker.Obtain(ctx, "lock:"+key, 5*time.Second, nil)
	if err != nil {
		return "", err
	}
	defer lock.Release(ctx)
	cmd := p.rdb.Get(ctx, key)
	if cmd.Err() == nil {
		return cmd.Val(), nil
	}
	var url string
	if err := p.db.QueryRowContext(ctx, "SELECT avatar FROM profiles WHERE id = $1", id).Scan(&url); err != nil {
		return "", err
	}
	return url, p.rdb.Set(ctx, key, url, 10*time.Minute).Err()
}

// Plan goes through the application's cache package, whose entries expire
// after the store's TTL: quiet.
func (p *Profiles) Plan(ctx context.Context, id string) (string, error) {
	key := "plan:" + id
	lock, err := p.locker.Obtain(ctx, "lock:"+key, 5*time.Second, nil)
	if err != nil {
		return "", err
	}
	defer lock.Release(ctx)
	var plan string
	found, err := p.store.Get(key, &plan)
	if err != nil {
		return "", err
	}
	if found {
		return plan, nil
	}
	if err := p.db.QueryRowContext(ctx, "SELECT plan FROM accounts WHERE id = $1", id).Scan(&plan); err != nil {
		return "", err
	}
	if err := p.store.Set(key, plan); err != nil {
		return "", err
	}
	return plan, nil
}

// Visits adds to what it read: a read-modify-write, the lock's business.
func (p *Profiles) Visits(ctx context.Context, id string) error {
	key := "visits:" + id
	lock, err := p.locker.Obtain(ctx, "lock:"+key, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	n, err := p.rdb.Get(ctx, key).Int()
	if err != nil && !errors.Is(err, redis.Nil) {
		return err
	}
	return p.rdb.Set(ctx, key, n+1, time.Hour).Err() // want `Set writes to Redis without a fencing token while the bsm/redislock lock`
}

// Close writes when the read found the key: it changes an entry another
// holder may have written since, so it stays reported.
func (p *Profiles) Close(ctx context.Context, id string) error {
	key := "session:" + id
	lock, err := p.locker.Obtain(ctx, "lock:"+key, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if err := p.rdb.Get(ctx, key).Err(); err != nil {
		return err
	}
	return p.rdb.Set(ctx, key, "closed", time.Hour).Err() // want `Set writes to Redis without a fencing token while the bsm/redislock lock`
}

// Settings writes the defaults on first use, with no expiry: a stale
// holder's late create overwrites what the next holder created and then
// changed, so it stays reported.
func (p *Profiles) Settings(ctx context.Context, id string) error {
	key := "settings:" + id
	lock, err := p.locker.Obtain(ctx, "lock:"+key, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if p.rdb.Exists(ctx, key).Val() == 0 {
		return p.rdb.Set(ctx, key, "{}", 0).Err() // want `Set writes to Redis without a fencing token while the bsm/redislock lock`
	}
	return nil
}

// Index reads one key and writes another: not a fill of what it read.
func (p *Profiles) Index(ctx context.Context, id string) error {
	key := "profile:" + id
	lock, err := p.locker.Obtain(ctx, "lock:"+key, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if _, err := p.rdb.Get(ctx, key).Result(); !errors.Is(err, redis.Nil) {
		return err
	}
	return p.rdb.Set(ctx, "profiles:latest", id, time.Minute).Err() // want `Set writes to Redis without a fencing token while the bsm/redislock lock`
}
