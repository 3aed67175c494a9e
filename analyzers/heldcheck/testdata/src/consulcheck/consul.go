// Package consulcheck asks Consul whether its session still holds the lock
// key before writing.
package consulcheck

import (
	"context"
	"database/sql"
	"errors"

	"github.com/hashicorp/consul/api"
)

var errLost = errors.New("lost the lock")

type worker struct {
	c       *api.Client
	db      *sql.DB
	session string
	lockKey string
}

// sessionInfo asks whether the session still exists, then writes.
func (w *worker) sessionInfo(ctx context.Context) error {
	entry, _, err := w.c.Session().Info(w.session, nil) // want `Session.Info only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE orders\) at line 31`
	if err != nil {
		return err
	}
	if entry == nil {
		return errLost
	}
	_, err = w.db.ExecContext(ctx, "UPDATE orders SET shipped = true WHERE id = 9")
	return err
}

// lockKeyOwner reads the lock key back and compares its session with ours.
func (w *worker) lockKeyOwner() error {
	pair, _, err := w.c.KV().Get(w.lockKey, nil) // want `KV.Get of the lock key only tells that the lease was held when it ran, yet it guards the unfenced write KV.Put at line 41`
	if err != nil || pair == nil || pair.Session != w.session {
		return errLost
	}
	_, err = w.c.KV().Put(&api.KVPair{Key: "orders/next", Value: []byte("10")}, nil)
	return err
}

// cas checks, then writes with check-and-set on the index it read: fine.
func (w *worker) cas() error {
	pair, _, err := w.c.KV().Get(w.lockKey, nil)
	if err != nil || pair == nil || pair.Session != w.session {
		return errLost
	}
	ok, _, err := w.c.KV().CAS(&api.KVPair{Key: "orders/next", Value: []byte("10"), ModifyIndex: pair.ModifyIndex}, nil)
	if err != nil {
		return err
	}
	if !ok {
		return errLost
	}
	return nil
}

// config reads an ordinary key: no lock, no check.
func (w *worker) config(ctx context.Context) error {
	pair, _, err := w.c.KV().Get("config/mode", nil)
	if err != nil || pair == nil {
		return err
	}
	if string(pair.Value) == "on" {
		_, err = w.db.ExecContext(ctx, "UPDATE settings SET mode = 'on'")
	}
	return err
}

// twice compares the pair's session twice: one check, one report.
func (w *worker) twice() error {
	pair, _, err := w.c.KV().Get(w.lockKey, nil) // want `KV.Get of the lock key only tells that the lease was held when it ran, yet it guards the unfenced write KV.Delete`
	if err != nil || pair == nil {
		return err
	}
	if pair.Session == "" {
		return errLost
	}
	if pair.Session != w.session {
		return errLost
	}
	_, err = w.c.KV().Delete("orders/next", nil)
	if pair.Session == w.session {
		_, err = w.c.KV().Delete("orders/last", nil)
	}
	return err
}
