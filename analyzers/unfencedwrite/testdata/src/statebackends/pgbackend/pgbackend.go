// Package pgbackend keeps the state in PostgreSQL under a session advisory
// lock taken on a pooled connection; its Put is a plain upsert.
package pgbackend

import (
	"context"
	"database/sql"
	"errors"

	"statebackends/remote"
)

type RemoteClient struct {
	db *sql.DB
}

func (c *RemoteClient) Get(ctx context.Context) ([]byte, error) {
	var data []byte
	err := c.db.QueryRowContext(ctx, `SELECT data FROM states WHERE name = 'default'`).Scan(&data)
	return data, err
}

func (c *RemoteClient) Put(ctx context.Context, data []byte) error {
	_, err := c.db.ExecContext(ctx, `INSERT INTO states (name, data) VALUES ('default', $1) ON CONFLICT (name) DO UPDATE SET data = $1`, data)
	return err
}

func (c *RemoteClient) Lock(ctx context.Context, who string) (string, error) {
	var ok bool
	if err := c.db.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(42)`).Scan(&ok); err != nil {
		return "", err
	}
	if !ok {
		return "", errors.New("state is locked")
	}
	return who, nil
}

func (c *RemoteClient) Unlock(ctx context.Context, id string) error {
	_, err := c.db.ExecContext(ctx, `SELECT pg_advisory_unlock(42)`)
	return err
}

// StateMgr creates the first state under the advisory lock: the State
// wraps this package's client, so the lock and the write are PostgreSQL's,
// not those of another backend of the program.
func StateMgr(ctx context.Context, db *sql.DB) (*remote.State, error) {
	st := remote.NewState(&RemoteClient{db: db})
	id, err := st.Lock(ctx, "init")
	if err != nil {
		return nil, err
	}
	defer st.Unlock(ctx, id)
	st.Write([]byte("{}"))
	return st, st.Persist(ctx) // want `State.Persist \(DB.ExecContext \(INSERT states\) at pgbackend.go:\d+, via \*pgbackend.RemoteClient.Put, via Client.Put\) writes to SQL database without a fencing token while the PostgreSQL lock taken by State.Lock \(line 49\) is held`
}
