// Package lockpkg takes its locks through the cache package's helpers and
// lets them go, or renews them, through the same helpers: those calls are
// the lock's own, not writes it guards.
package lockpkg

import (
	"context"
	"sync"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"

	"lockpkg/cache"
	"lockpkg/retry"
)

const masterKey = "cluster:master"

type cluster struct {
	id     string
	master bool
}

func nodeLockKey(node string) string { return "cluster:node-lock:" + node }

// vote updates a node's record under the node's lock, then lets it go.
func (c *cluster) vote(node, addr string) error {
	if err := cache.Lock(nodeLockKey(node), 5*time.Second, time.Second); err != nil {
		return err
	}
	defer cache.Unlock(nodeLockKey(node))
	return cache.SetMapField("cluster:nodes", node, addr) // want `cache.SetMapField \(HSet at cache.go:\d+\) writes to Redis without a fencing token while the Redis lock taken by cache.Lock`
}

// lockMaster claims the master key.
func (c *cluster) lockMaster() (bool, error) {
	return cache.SetNX(masterKey, c.id, 10*time.Second)
}

// keepMaster renews the master key it holds: the lock's own renewal.
func (c *cluster) keepMaster() error {
	_, err := cache.Expire(masterKey, 10*time.Second)
	return err
}

// run claims the master key and keeps it; as master it drops the nodes
// that went away. Every node, master or not, reports itself each turn: the
// master key, taken in an earlier turn, does not guard that.
func (c *cluster) run(tick <-chan time.Time, gone func() []string) {
	for range tick {
		cache.SetMapField("cluster:alive", c.id, time.Now().String())
		if !c.master {
			ok, err := c.lockMaster()
			if err == nil && ok {
				c.master = true
			}
			continue
		}
		if err := c.keepMaster(); err != nil {
			c.master = false
			continue
		}
		for _, node := range gone() {
			cache.Del("cluster:node:" + node) // want `cache.Del \(Del at cache.go:\d+\) writes to Redis without a fencing token while the Redis lock taken by cluster.lockMaster`
		}
	}
}

// A launch in progress: done when it found the work already launched.
type launchStream struct {
	done    bool
	onClose []func()
}

func (s *launchStream) beforeClose(f func()) { s.onClose = append(s.onClose, f) }

func setup(key string) (*launchStream, error) { return &launchStream{done: key == ""}, nil }

// launch takes the launch lock and lets it go once: at once when it fails
// or finds the launch done, else when the stream it returns closes. The
// release closure is kept in a variable the close hook captures.
func launch(key string) (*launchStream, error) {
	if err := cache.Lock("launch:"+key, 30*time.Second, 30*time.Second); err != nil {
		return nil, err
	}
	var once sync.Once
	unlock := func(err error) error {
		once.Do(func() { cache.Unlock("launch:" + key) })
		return err
	}
	s, err := setup(key)
	if err != nil {
		return nil, unlock(err)
	}
	if s.done {
		return s, unlock(nil)
	}
	s.beforeClose(func() { unlock(nil) })
	return s, nil
}

// install records the launch: launch is no acquire its caller holds.
func install(key string) error {
	if _, err := launch(key); err != nil {
		return err
	}
	return cache.SetMapField("installs", key, "done")
}

// moveAll locks every source in turn, then writes under all of them: the
// writes come after the loop that takes the locks, not in a later turn.
func moveAll(sources []string) error {
	for _, s := range sources {
		if err := cache.Lock("move:"+s, 30*time.Second, time.Second); err != nil {
			return err
		}
	}
	defer func() {
		for _, s := range sources {
			cache.Unlock("move:" + s)
		}
	}()
	return cache.SetMapField("moves", "last", "done") // want `cache.SetMapField \(HSet at cache.go:\d+\) writes to Redis without a fencing token while the Redis lock taken by cache.Lock`
}

// saveNode takes the node's lock through a retry helper, which returns
// holding it when the func it ran got it, and writes under it.
func saveNode(node, addr string) error {
	err := retry.Do(3, func() error {
		return cache.Lock(nodeLockKey(node), 5*time.Second, time.Second)
	})
	if err != nil {
		return err
	}
	defer cache.Unlock(nodeLockKey(node))
	return cache.SetMapField("cluster:nodes", node, addr) // want `cache.SetMapField \(HSet at cache.go:\d+\) writes to Redis without a fencing token while the Redis lock taken by the closure retry.Do runs`
}

// A node takes its own lock in a method, which saveNodeByMethod hands to
// the retry helper as a method value: held once Do returns no error.
type node struct{ name string }

func (n node) lock() error { return cache.Lock(nodeLockKey(n.name), 5*time.Second, time.Second) }

func saveNodeByMethod(name, addr string) error {
	n := node{name: name}
	if err := retry.Do(3, n.lock); err != nil {
		return err
	}
	defer cache.Unlock(nodeLockKey(name))
	return cache.SetMapField("cluster:nodes", name, addr) // want `cache.SetMapField \(HSet at cache.go:\d+\) writes to Redis without a fencing token while the Redis lock taken by retry.Do\(node.lock\)`
}

// A per-entity lock whose helpers take, renew and let go of the key the
// caller names: extendLock's EXPIRE and unlock's DEL are the lock's own.
type entityLock struct{ rdb *redis.Client }

func (l *entityLock) lock(ctx context.Context, id string) (bool, error) {
	return l.rdb.SetNX(ctx, id, "1", 10*time.Second).Result()
}

func (l *entityLock) extendLock(ctx context.Context, id string) error {
	return l.rdb.Expire(ctx, id, 10*time.Second).Err()
}

func (l *entityLock) unlock(ctx context.Context, ids ...string) error {
	return l.rdb.Del(ctx, ids...).Err()
}

// Handle counts the entity's event under its lock.
func (l *entityLock) Handle(ctx context.Context, id string) error {
	ok, err := l.lock(ctx, id)
	if err != nil || !ok {
		return err
	}
	defer l.unlock(ctx, id)
	if err := l.extendLock(ctx, id); err != nil {
		return err
	}
	return l.rdb.HSet(ctx, "counts", id, 1).Err() // want `HSet writes to Redis without a fencing token while the Redis lock taken by entityLock.lock`
}

// startUp recomputes once per cluster start: the instance that gets the
// start-up lock does it, and drops the lock to expire. Every instance then
// reports itself, lock or not: that write runs also when the claim failed,
// so the lock does not guard it.
func (c *cluster) startUp(ctx context.Context, locker *redislock.Client) error {
	if _, err := locker.Obtain(ctx, "cluster:startup", time.Minute, nil); err != nil {
		c.master = false
	} else {
		cache.SetMapField("cluster:recomputed", c.id, "now") // want `cache.SetMapField \(HSet at cache.go:\d+\) writes to Redis without a fencing token while the bsm/redislock lock taken by Client.Obtain`
	}
	return cache.SetMapField("cluster:started", c.id, "now")
}

// tagOwn writes under its lock also when Lock says this node holds it
// already (an error that is no failure): the lock guards the write.
func (c *cluster) tagOwn(ctx context.Context, l *entityLock, id string) error {
	ok, err := l.lock(ctx, id)
	if err != nil {
		return err
	}
	if ok {
		defer l.unlock(ctx, id)
	}
	return cache.SetMapField("cluster:tags", id, "own") // want `cache.SetMapField \(HSet at cache.go:\d+\) writes to Redis without a fencing token while the Redis lock taken by entityLock.lock`
}
