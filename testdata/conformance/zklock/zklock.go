// Package zklock holds a partition rebalancer that serializes on a
// go-zookeeper/zk Lock and writes the assignment back to ZooKeeper and to
// Postgres.
package zklock

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
)

const (
	lockPath       = "/locks/rebalancer"
	assignmentPath = "/config/partitions"
)

var errNotOwner = errors.New("rebalancer: lock node gone")

// Rebalancer assigns partitions to consumers.
type Rebalancer struct {
	conn   *zk.Conn
	events <-chan zk.Event
	db     *sql.DB
}

// Connect opens the ZooKeeper session.
func Connect(servers []string, db *sql.DB) (*Rebalancer, error) {
	conn, events, err := zk.Connect(servers, 10*time.Second)
	if err != nil {
		return nil, err
	}
	return &Rebalancer{conn: conn, events: events, db: db}, nil
}

// Rebalance writes the assignment with version -1 (unconditional) and
// creates an audit node: both land even after the session expired and the
// lock passed to another rebalancer.
func (r *Rebalancer) Rebalance(assignment map[string][]int) error {
	l := zk.NewLock(r.conn, lockPath, zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	data, err := json.Marshal(assignment)
	if err != nil {
		return err
	}
	if _, err := r.conn.Set(assignmentPath, data, -1); err != nil { // want unfencedwrite:"without a fencing token"
		return err
	}
	_, err = r.conn.Create("/audit/rebalance-", data, zk.FlagSequence, zk.WorldACL(zk.PermAll)) // want unfencedwrite:"without a fencing token"
	return err
}

// RebalanceVersioned writes over the version it read: ZooKeeper rejects
// the write if anyone wrote the node since.
func (r *Rebalancer) RebalanceVersioned(assignment map[string][]int) error {
	l := zk.NewLock(r.conn, lockPath, zk.WorldACL(zk.PermAll))
	if err := l.LockWithData([]byte("rebalancer")); err != nil {
		return err
	}
	defer l.Unlock()
	_, stat, err := r.conn.Get(assignmentPath)
	if err != nil {
		return err
	}
	data, err := json.Marshal(assignment)
	if err != nil {
		return err
	}
	_, err = r.conn.Set(assignmentPath, data, stat.Version)
	if errors.Is(err, zk.ErrBadVersion) {
		return errNotOwner
	}
	return err
}

// RebalanceMulti writes in a multi-op that first checks its own lock node
// still exists: the transaction fails once the session (and the ephemeral
// node) is gone.
func (r *Rebalancer) RebalanceMulti(assignment map[string][]int) error {
	l := zk.NewLock(r.conn, lockPath, zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	own, err := r.ownLockNode()
	if err != nil {
		return err
	}
	data, err := json.Marshal(assignment)
	if err != nil {
		return err
	}
	_, err = r.conn.Multi(
		&zk.CheckVersionRequest{Path: own, Version: 0},
		&zk.SetDataRequest{Path: assignmentPath, Data: data, Version: -1},
	)
	return err
}

// ownLockNode finds the ephemeral child of the lock path this session owns.
func (r *Rebalancer) ownLockNode() (string, error) {
	children, _, err := r.conn.Children(lockPath)
	if err != nil {
		return "", err
	}
	for _, c := range children {
		if !strings.Contains(c, "-lock-") {
			continue
		}
		p := path.Join(lockPath, c)
		_, stat, err := r.conn.Get(p)
		if err == nil && stat.EphemeralOwner == r.conn.SessionID() {
			return p, nil
		}
	}
	return "", errNotOwner
}

// RebalanceIfConnected trusts the local session state.
func (r *Rebalancer) RebalanceIfConnected(data []byte) error {
	l := zk.NewLock(r.conn, lockPath, zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	if r.conn.State() != zk.StateHasSession { // want heldcheck:"only tells that the lease was held"
		return errNotOwner
	}
	return r.conn.Delete("/config/partitions-draft", -1) // want unfencedwrite:"without a fencing token"
}

// RecordWithVersionFence uses the lock node's data version as the fence;
// it restarts at 0 for every new node.
func (r *Rebalancer) RecordWithVersionFence(ctx context.Context, generation int) error {
	l := zk.NewLock(r.conn, lockPath, zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, stat, err := r.conn.Get(lockPath)
	if err != nil {
		return err
	}
	res, err := r.db.ExecContext(ctx, `UPDATE rebalances SET generation = $1, fence = $2 WHERE id = 1 AND fence < $2`, generation, stat.Version) // want weaktoken:"is not a fencing token"
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errNotOwner
	}
	return nil
}

// RecordWithZxidFence uses the creation zxid of its own lock node, which
// grows with every new holder.
func (r *Rebalancer) RecordWithZxidFence(ctx context.Context, generation int) error {
	l := zk.NewLock(r.conn, lockPath, zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	own, err := r.ownLockNode()
	if err != nil {
		return err
	}
	_, stat, err := r.conn.Get(own)
	if err != nil {
		return err
	}
	res, err := r.db.ExecContext(ctx, `UPDATE rebalances SET generation = $1, fence = $2 WHERE id = 1 AND fence < $2`, generation, stat.Czxid)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errNotOwner
	}
	return nil
}

// WatchSession returns when the session expires.
func (r *Rebalancer) WatchSession(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev := <-r.events:
			if ev.Type == zk.EventSession && ev.State == zk.StateExpired {
				return errNotOwner
			}
		}
	}
}

// SwapAssignments replaces the assignment and drops the draft in one
// multi-op, but checks nothing about the lock node: atomic, not fenced.
func (r *Rebalancer) SwapAssignments(data []byte) error {
	l := zk.NewLock(r.conn, lockPath, zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := r.conn.Multi( // want unfencedwrite:"without a fencing token"
		&zk.SetDataRequest{Path: assignmentPath, Data: data, Version: -1},
		&zk.DeleteRequest{Path: "/config/partitions-draft", Version: -1},
	)
	return err
}

// Init waits for the connection at start-up, holding no lock, and creates
// the base nodes if absent: ZooKeeper refuses a Create of an existing node
// (zk.ErrNodeExists), so neither write needs a token and the readiness
// check vouches for no lease.
func (r *Rebalancer) Init() error {
	if r.conn.State() != zk.StateHasSession {
		return errors.New("rebalancer: ZooKeeper session not established")
	}
	for _, p := range []string{"/config", assignmentPath} {
		if _, err := r.conn.Create(p, nil, zk.FlagPersistent, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			return err
		}
	}
	return nil
}

// MarkDone creates the done marker under the lock, once.
func (r *Rebalancer) MarkDone(epoch string) error {
	l := zk.NewLock(r.conn, lockPath, zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := r.conn.Create("/rebalances/"+epoch+"/done", nil, 0, zk.WorldACL(zk.PermAll))
	if errors.Is(err, zk.ErrNodeExists) {
		return nil
	}
	return err
}
