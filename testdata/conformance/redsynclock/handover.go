package redsynclock

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/go-redsync/redsync/v4"
)

// A space catalog whose loader takes the space's mutex, loads the space
// and hands the release to its caller only when the load succeeded: a
// deferred closure lets go on every failure, while the flag it tests says
// the lock was not handed over (vearch's loadLockedSpace).
type spaceCatalog struct {
	rs *redsync.Redsync
	db *sql.DB
}

func (c *spaceCatalog) loadLocked(ctx context.Context, name string) (int64, func(), error) {
	m := c.rs.NewMutex("space:" + name)
	if err := m.LockContext(ctx); err != nil {
		return 0, nil, err
	}
	unlock := func() { _, _ = m.UnlockContext(context.WithoutCancel(ctx)) }
	release := true
	defer func() {
		if release {
			unlock()
		}
	}()
	var id int64
	if err := c.db.QueryRowContext(ctx, `SELECT id FROM spaces WHERE name = $1`, name).Scan(&id); err != nil {
		return 0, nil, fmt.Errorf("loading space %s: %w", name, err)
	}
	release = false
	return id, unlock, nil
}

// AddIndex writes the space's index list under the lock loadLocked handed
// over.
func (c *spaceCatalog) AddIndex(ctx context.Context, name, index string) error {
	id, unlock, err := c.loadLocked(ctx, name)
	if err != nil {
		return err
	}
	defer unlock()
	_, err = c.db.ExecContext(ctx, `UPDATE spaces SET indexes = array_append(indexes, $1) WHERE id = $2`, index, id) // want unfencedwrite:"while the redsync lock taken by spaceCatalog.loadLocked"
	return err
}
