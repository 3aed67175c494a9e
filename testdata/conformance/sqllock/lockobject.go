package sqllock

import (
	"context"
	"database/sql"
	"fmt"
)

// StateClient stores one named state document in PostgreSQL and locks it
// with a session advisory lock that it keeps between its Lock and Unlock
// calls: its users call Lock, Get, Put and Unlock, as a remote-state
// backend does.
type StateClient struct {
	DB     *sql.DB
	Schema string
	Name   string

	lockID string
}

func (c *StateClient) Lock(ctx context.Context) error {
	var ok bool
	query := fmt.Sprintf(`SELECT pg_try_advisory_lock(id) FROM %s.states WHERE name = $1`, c.Schema)
	if err := c.DB.QueryRowContext(ctx, query, c.Name).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("state %s is locked", c.Name)
	}
	c.lockID = c.Name
	return nil
}

func (c *StateClient) Unlock(ctx context.Context) error {
	if c.lockID == "" {
		return nil
	}
	query := fmt.Sprintf(`SELECT pg_advisory_unlock(id) FROM %s.states WHERE name = $1`, c.Schema)
	_, err := c.DB.ExecContext(ctx, query, c.lockID)
	c.lockID = ""
	return err
}

// Put writes while the client holds its lock, through the pool: a holder
// whose lock session died overwrites the state the next holder wrote.
func (c *StateClient) Put(ctx context.Context, data []byte) error {
	query := fmt.Sprintf(`INSERT INTO %s.states (name, data) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET data = $2 WHERE states.name = $1`, c.Schema)
	_, err := c.DB.ExecContext(ctx, query, c.Name, data) // want unfencedwrite:"which the StateClient keeps until StateClient.Unlock"
	return err
}

// Delete removes the state. Only the shared client test (TestStateClient)
// calls it, under no lock: nothing runs it under the client's lock.
func (c *StateClient) Delete(ctx context.Context) error {
	_, err := c.DB.ExecContext(ctx, fmt.Sprintf(`DELETE FROM %s.states WHERE name = $1`, c.Schema), c.Name)
	return err
}

// Get only reads.
func (c *StateClient) Get(ctx context.Context) ([]byte, error) {
	var data []byte
	err := c.DB.QueryRowContext(ctx, fmt.Sprintf(`SELECT data FROM %s.states WHERE name = $1`, c.Schema), c.Name).Scan(&data)
	return data, err
}

// StateStore is what the state manager writes through.
type StateStore interface {
	Get(ctx context.Context) ([]byte, error)
	Put(ctx context.Context, data []byte) error
}

// Persist is the state manager's write, which its users call between the
// client's Lock and Unlock.
func Persist(ctx context.Context, s StateStore, data []byte) error {
	return s.Put(ctx, data)
}

// Migrations locks and unlocks within one method and records nothing
// between calls: its other methods run under no lock of its own.
type Migrations struct {
	DB *sql.DB
}

func (m *Migrations) Apply(ctx context.Context, stmts []string) error {
	conn, err := m.DB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(7)`); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, `SELECT pg_advisory_unlock(7)`)
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

func (m *Migrations) Record(ctx context.Context, version int) error {
	_, err := m.DB.ExecContext(ctx, `INSERT INTO schema_versions (version) VALUES ($1)`, version)
	return err
}
