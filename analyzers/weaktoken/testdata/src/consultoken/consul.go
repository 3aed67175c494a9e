// Package consultoken fences SQL writes made under Consul locks.
package consultoken

import (
	"context"
	"database/sql"

	"github.com/hashicorp/consul/api"
)

const update = "UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2"

// modifyIndex fences with the lock key's ModifyIndex: a Raft index.
func modifyIndex(ctx context.Context, db *sql.DB, c *api.Client) error {
	l, err := c.LockKey("docs")
	if err != nil {
		return err
	}
	if _, err := l.Lock(nil); err != nil {
		return err
	}
	defer l.Unlock()
	pair, _, err := c.KV().Get("docs", nil)
	if err != nil || pair == nil {
		return err
	}
	return checked(db.ExecContext(ctx, update, "body", pair.ModifyIndex, 1))
}

// lockIndexReadBack reads LockIndex back after acquiring without checking
// the pair's session: it may be the successor's.
func lockIndexReadBack(ctx context.Context, db *sql.DB, c *api.Client, sid string) error {
	ok, _, err := c.KV().Acquire(&api.KVPair{Key: "docs", Session: sid}, nil)
	if err != nil || !ok {
		return err
	}
	defer c.KV().Release(&api.KVPair{Key: "docs", Session: sid}, nil)
	pair, _, err := c.KV().Get("docs", nil)
	if err != nil || pair == nil {
		return err
	}
	return checked(db.ExecContext(ctx, update, "body", pair.LockIndex, 1)) // want `is fenced with KV.Get\(\).LockIndex \(line 42\), which is not a fencing token: it is read back after .*without comparing the pair's Session.*; use the lock key's ModifyIndex`
}

// lockIndexChecked compares the pair's session first: the sequencer.
func lockIndexChecked(ctx context.Context, db *sql.DB, c *api.Client, sid string) error {
	ok, _, err := c.KV().Acquire(&api.KVPair{Key: "docs", Session: sid}, nil)
	if err != nil || !ok {
		return err
	}
	defer c.KV().Release(&api.KVPair{Key: "docs", Session: sid}, nil)
	pair, _, err := c.KV().Get("docs", nil)
	if err != nil || pair == nil || pair.Session != sid {
		return err
	}
	return checked(db.ExecContext(ctx, update, "body", pair.LockIndex, 1))
}

// lockIndexAnyHolder checks only that the pair has a session: that someone
// holds the lock, which after a pause may be the successor.
func lockIndexAnyHolder(ctx context.Context, db *sql.DB, c *api.Client, sid string) error {
	ok, _, err := c.KV().Acquire(&api.KVPair{Key: "docs", Session: sid}, nil)
	if err != nil || !ok {
		return err
	}
	defer c.KV().Release(&api.KVPair{Key: "docs", Session: sid}, nil)
	pair, _, err := c.KV().Get("docs", nil)
	if err != nil || pair == nil || pair.Session == "" {
		return err
	}
	return checked(db.ExecContext(ctx, update, "body", pair.LockIndex, 1)) // want `is fenced with KV.Get\(\).LockIndex \(line 71\), which is not a fencing token: it is read back after the Consul lock taken by KV.Acquire \(line 62\) was taken without comparing the pair's Session with this holder's`
}

// sessionID fences with the session ID, a random UUID.
func sessionID(ctx context.Context, db *sql.DB, c *api.Client) error {
	sid, _, err := c.Session().Create(&api.SessionEntry{TTL: "10s"}, nil)
	if err != nil {
		return err
	}
	defer c.Session().Destroy(sid, nil)
	ok, _, err := c.KV().Acquire(&api.KVPair{Key: "docs", Session: sid}, nil)
	if err != nil || !ok {
		return err
	}
	defer c.KV().Release(&api.KVPair{Key: "docs", Session: sid}, nil)
	return checked(db.ExecContext(ctx, update, "body", sid, 1)) // want `is fenced with Session.Create\(\) \(line \d+\), which is not a fencing token: a Consul session ID is a random UUID`
}

func checked(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return sql.ErrNoRows
	}
	return nil
}
