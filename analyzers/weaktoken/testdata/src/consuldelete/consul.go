// Package consuldelete uses sessions that delete the lock key when they
// end, so the key's LockIndex restarts at 1: even a checked LockIndex is no
// token here.
package consuldelete

import (
	"context"
	"database/sql"

	"github.com/hashicorp/consul/api"
)

// newSession creates a session whose end deletes the keys it holds.
func newSession(c *api.Client) (string, error) {
	sid, _, err := c.Session().Create(&api.SessionEntry{TTL: "10s", Behavior: api.SessionBehaviorDelete}, nil)
	return sid, err
}

// checkedLockIndex compares the pair's session, but the key can be
// deleted and recreated.
func checkedLockIndex(ctx context.Context, db *sql.DB, c *api.Client, sid string) error {
	ok, _, err := c.KV().Acquire(&api.KVPair{Key: "docs", Session: sid}, nil)
	if err != nil || !ok {
		return err
	}
	defer c.KV().Release(&api.KVPair{Key: "docs", Session: sid}, nil)
	pair, _, err := c.KV().Get("docs", nil)
	if err != nil || pair == nil || pair.Session != sid {
		return err
	}
	res, err := db.ExecContext(ctx, "UPDATE docs SET fence = $1 WHERE id = 1 AND fence < $1", pair.LockIndex) // want `is fenced with KV.Get\(\).LockIndex \(line 31\), which is not a fencing token: Consul's LockIndex restarts at 1 when the lock key is deleted`
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// modifyIndex is a Raft index, never reset: a real token.
func modifyIndex(ctx context.Context, db *sql.DB, c *api.Client, sid string) error {
	ok, _, err := c.KV().Acquire(&api.KVPair{Key: "docs", Session: sid}, nil)
	if err != nil || !ok {
		return err
	}
	defer c.KV().Release(&api.KVPair{Key: "docs", Session: sid}, nil)
	pair, _, err := c.KV().Get("docs", nil)
	if err != nil || pair == nil || pair.Session != sid {
		return err
	}
	res, err := db.ExecContext(ctx, "UPDATE docs SET fence = $1 WHERE id = 1 AND fence < $1", pair.ModifyIndex)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}
