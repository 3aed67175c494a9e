// Package pg keeps the state in PostgreSQL. Its client takes a session
// advisory lock on a pooled connection in Lock and keeps it (c.info) until
// Unlock: users call its other methods in between.
package pg

import (
	"context"
	"database/sql"
	"errors"
)

type RemoteClient struct {
	DB   *sql.DB
	Name string
	info *string
}

func (c *RemoteClient) Get(ctx context.Context) ([]byte, error) {
	var data []byte
	err := c.DB.QueryRowContext(ctx, `SELECT data FROM states WHERE name = $1`, c.Name).Scan(&data)
	return data, err
}

// Put is what the state manager calls between Lock and Unlock, through
// remote.Client: a holder whose lock session went away overwrites the state
// the next holder wrote.
func (c *RemoteClient) Put(ctx context.Context, data []byte) error {
	_, err := c.DB.ExecContext(ctx, `INSERT INTO states (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2`, c.Name, data) // want `ExecContext \(INSERT states\) writes to SQL database without a fencing token while the PostgreSQL advisory lock taken by pg_try_advisory_lock in RemoteClient.Lock, which the RemoteClient keeps until RemoteClient.Unlock`
	return err
}

// Delete implements remote.Client, but only remote.TestClient, a test
// helper, calls Client.Delete: nothing runs it under the lock.
func (c *RemoteClient) Delete(ctx context.Context) error {
	_, err := c.DB.ExecContext(ctx, `DELETE FROM states WHERE name = $1`, c.Name)
	return err
}

// Rename is called by the application directly, while it holds the lock.
func (c *RemoteClient) Rename(ctx context.Context, to string) error {
	_, err := c.DB.ExecContext(ctx, `UPDATE states SET name = $1 WHERE name = $2`, to, c.Name) // want `ExecContext \(UPDATE states\) writes to SQL database without a fencing token while the PostgreSQL advisory lock taken by pg_try_advisory_lock in RemoteClient.Lock`
	c.Name = to
	return err
}

// Purge is called only from this package's tests.
func (c *RemoteClient) Purge(ctx context.Context) error {
	_, err := c.DB.ExecContext(ctx, `DELETE FROM states`)
	return err
}

func (c *RemoteClient) Lock(ctx context.Context, who string) (string, error) {
	var ok bool
	if err := c.DB.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(hashtext($1))`, c.Name).Scan(&ok); err != nil {
		return "", err
	}
	if !ok {
		return "", errors.New("state is locked")
	}
	c.info = &who
	return who, nil
}

func (c *RemoteClient) Unlock(ctx context.Context, id string) error {
	if c.info == nil {
		return nil
	}
	_, err := c.DB.ExecContext(ctx, `SELECT pg_advisory_unlock(hashtext($1))`, c.Name)
	c.info = nil
	return err
}
