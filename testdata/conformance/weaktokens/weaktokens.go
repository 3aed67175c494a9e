// Package weaktokens holds fenced writes whose token is monotonic but not
// issued with the lease, next to the real tokens each library offers.
package weaktokens

import (
	"context"
	"errors"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/google/uuid"
	"github.com/hashicorp/consul/api"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
	"go.etcd.io/etcd/client/v3/concurrency"

	"github.com/fencelint/fencelint/testdata/conformance/weaktokens/fencing"
)

var errStale = errors.New("stale writer")

const setReport = `UPDATE reports SET body = $1, fence = $2 WHERE id = $3 AND fence < $2`

// Reports writes report rows fenced by a token.
type Reports struct {
	pool *pgxpool.Pool
	rdb  *redis.Client
}

func (r *Reports) write(ctx context.Context, body string, fence int64) error {
	tag, err := r.pool.Exec(ctx, setReport, body, fence, 1)
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		return errStale
	}
	return nil
}

// nextFence draws from a sequence in a statement of its own.
func (r *Reports) nextFence(ctx context.Context) (int64, error) {
	var fence int64
	err := r.pool.QueryRow(ctx, `SELECT nextval('report_fence')`).Scan(&fence)
	return fence, err
}

// LateSequence locks, then draws the fence through a helper.
func (r *Reports) LateSequence(ctx context.Context, m *concurrency.Mutex) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	fence, err := r.nextFence(ctx)
	if err != nil {
		return err
	}
	return r.write(ctx, "late", fence) // want weaktoken:"is not a fencing token: it is drawn in a separate step after"
}

// EarlySequence draws before locking: a stale holder's token is older.
func (r *Reports) EarlySequence(ctx context.Context, m *concurrency.Mutex) error {
	fence, err := r.nextFence(ctx)
	if err != nil {
		return err
	}
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return r.write(ctx, "early", fence)
}

// LeaseRow takes a lease row and its token in one statement.
func (r *Reports) LeaseRow(ctx context.Context, me string) error {
	var fence int64
	err := r.pool.QueryRow(ctx, `UPDATE leases SET holder = $1, token = token + 1, expires_at = now() + interval '10 seconds'
		WHERE name = 'reports' AND (expires_at < now() OR holder = $1) RETURNING token`, me).Scan(&fence)
	if err != nil {
		return err
	}
	return r.write(ctx, "lease row", fence)
}

// ThroughPackage fences with the revision a helper package hands out.
func (r *Reports) ThroughPackage(ctx context.Context, m *concurrency.Mutex) error {
	g, err := fencing.Acquire(ctx, m)
	if err != nil {
		return err
	}
	defer g.Release(ctx)
	if err := r.write(ctx, "field", g.Token); err != nil {
		return err
	}
	return r.write(ctx, "method", g.Fence())
}

var obtainWithFence = redis.NewScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return 0`)

// AtomicRedisFence sets the lock and increments the fence in one script.
// The uuid is only the lock's value; the time is only logged.
func (r *Reports) AtomicRedisFence(ctx context.Context) error {
	owner := uuid.NewString()
	fence, err := obtainWithFence.Run(ctx, r.rdb, []string{"lock:reports", "fence:reports"}, owner, 10000).Int64()
	if err != nil || fence == 0 {
		return errors.New("busy")
	}
	started := time.Now()
	defer func() { _ = time.Since(started) }()
	return r.write(ctx, "atomic", fence)
}

// LateRedisFence takes the fence with INCR after SET NX.
func (r *Reports) LateRedisFence(ctx context.Context) error {
	owner := uuid.NewString()
	ok, err := r.rdb.SetNX(ctx, "lock:reports", owner, 10*time.Second).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer r.rdb.Eval(ctx, `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`,
		[]string{"lock:reports"}, owner)
	fence, err := r.rdb.Incr(ctx, "fence:reports").Result()
	if err != nil {
		return err
	}
	return r.write(ctx, "late incr", fence) // want weaktoken:"is not a fencing token: it is drawn in a separate step after"
}

// ConsulSequencer reads LockIndex and checks the pair is still ours.
func (r *Reports) ConsulSequencer(ctx context.Context, c *api.Client, sid string) error {
	ok, _, err := c.KV().Acquire(&api.KVPair{Key: "reports", Session: sid}, nil)
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer c.KV().Release(&api.KVPair{Key: "reports", Session: sid}, nil)
	pair, _, err := c.KV().Get("reports", nil)
	if err != nil || pair == nil || pair.Session != sid {
		return errStale
	}
	return r.write(ctx, "sequencer", int64(pair.LockIndex))
}

// ConsulSessionID uses the session ID, a UUID.
func (r *Reports) ConsulSessionID(ctx context.Context, c *api.Client, pool *pgxpool.Pool) error {
	sid, _, err := c.Session().Create(&api.SessionEntry{TTL: "10s"}, nil)
	if err != nil {
		return err
	}
	defer c.Session().Destroy(sid, nil)
	ok, _, err := c.KV().Acquire(&api.KVPair{Key: "reports", Session: sid}, nil)
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer c.KV().Release(&api.KVPair{Key: "reports", Session: sid}, nil)
	tag, err := pool.Exec(ctx, `UPDATE reports SET owner = $1 WHERE id = 1 AND owner < $1`, sid) // want weaktoken:"is not a fencing token: a Consul session ID is a random UUID"
	if err != nil || tag.RowsAffected() != 1 {
		return errStale
	}
	return nil
}

// ZooKeeperZxid fences with the creation zxid of the lock node.
func (r *Reports) ZooKeeperZxid(ctx context.Context, conn *zk.Conn, node string) error {
	l := zk.NewLock(conn, "/locks/reports", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, stat, err := conn.Get(node)
	if err != nil {
		return err
	}
	return r.write(ctx, "zxid", stat.Czxid)
}

// ZooKeeperSession fences with the session ID.
func (r *Reports) ZooKeeperSession(ctx context.Context, conn *zk.Conn) error {
	l := zk.NewLock(conn, "/locks/reports", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	return r.write(ctx, "session", conn.SessionID()) // want weaktoken:"is not a fencing token: a ZooKeeper session ID"
}
