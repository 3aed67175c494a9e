// Package app saves its state through the state manager, and renames a
// workspace under the same lock.
package app

import (
	"context"
	"database/sql"

	"lockcallers/pg"
	"lockcallers/remote"
)

func Save(ctx context.Context, db *sql.DB, data []byte) error {
	st := &remote.State{Client: &pg.RemoteClient{DB: db, Name: "default"}}
	id, err := st.Lock(ctx, "save")
	if err != nil {
		return err
	}
	defer st.Unlock(ctx, id)
	st.Write(data)
	return st.Persist(ctx)
}

func Rename(ctx context.Context, db *sql.DB, from, to string) error {
	c := &pg.RemoteClient{DB: db, Name: from}
	id, err := c.Lock(ctx, "rename")
	if err != nil {
		return err
	}
	defer c.Unlock(ctx, id)
	return c.Rename(ctx, to)
}
