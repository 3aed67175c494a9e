// Package lockobjects holds state clients that hold a lock between their
// own method calls: their users call Lock, then Put, then Unlock.
package lockobjects

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var errLocked = errors.New("locked")

type LockInfo struct{ ID, Path string }

// PGClient keeps one named state row and locks it with a session advisory
// lock, which it records in the receiver until Unlock gives it up.
type PGClient struct {
	db   *sql.DB
	name string
	info *LockInfo
}

func (c *PGClient) Lock(ctx context.Context, info *LockInfo) (string, error) {
	var ok bool
	if err := c.db.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(hashtext($1))`, c.name).Scan(&ok); err != nil {
		return "", err
	}
	if !ok {
		return "", errLocked
	}
	c.info = info
	return info.ID, nil
}

func (c *PGClient) Unlock(ctx context.Context, id string) error {
	if c.info == nil {
		return nil
	}
	_, err := c.db.ExecContext(ctx, `SELECT pg_advisory_unlock(hashtext($1))`, c.name)
	c.info = nil
	return err
}

func (c *PGClient) Get(ctx context.Context) ([]byte, error) {
	var data []byte
	err := c.db.QueryRowContext(ctx, `SELECT data FROM states WHERE name = $1`, c.name).Scan(&data)
	return data, err
}

// Put writes the state while the client holds its lock: a holder whose
// lock session went away overwrites the state the next holder wrote.
func (c *PGClient) Put(ctx context.Context, data []byte) error {
	_, err := c.db.ExecContext(ctx, `INSERT INTO states (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2`, c.name, data) // want `ExecContext \(INSERT states\) writes to SQL database without a fencing token while the PostgreSQL advisory lock taken by pg_try_advisory_lock in PGClient.Lock, which the PGClient keeps until PGClient.Unlock \(line 28\) is held`
	return err
}

// Sync locks and unlocks the client itself: its write after Unlock is
// made under no lock.
func (c *PGClient) Sync(ctx context.Context, data []byte) error {
	if _, err := c.Lock(ctx, &LockInfo{}); err != nil {
		return err
	}
	if err := c.Unlock(ctx, ""); err != nil {
		return err
	}
	_, err := c.db.ExecContext(ctx, `UPDATE states SET synced = now() WHERE name = $1`, c.name)
	return err
}

// JobStore locks and unlocks within one method: it holds nothing between
// calls, so Save is not made under its lock.
type JobStore struct {
	db   *sql.DB
	conn *sql.Conn
	held bool
}

func (s *JobStore) RunLocked(ctx context.Context, work func() error) error {
	if _, err := s.conn.ExecContext(ctx, `SELECT pg_advisory_lock(1)`); err != nil {
		return err
	}
	s.held = true
	defer func() {
		s.conn.ExecContext(ctx, `SELECT pg_advisory_unlock(1)`)
		s.held = false
	}()
	if err := work(); err != nil {
		return err
	}
	return nil
}

// Release gives the lock up early, reading the flag RunLocked keeps.
func (s *JobStore) Release(ctx context.Context) error {
	if !s.held {
		return nil
	}
	_, err := s.conn.ExecContext(ctx, `SELECT pg_advisory_unlock(1)`)
	return err
}

func (s *JobStore) Save(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE jobs SET done = true WHERE id = $1`, id)
	return err
}

// RoomStore's lock is per room, its key and token carried by the caller:
// the store holds no lock of its own, so StoreRoom is judged where it is
// called.
type RoomStore struct {
	rdb *redis.Client
}

func (s *RoomStore) LockRoom(ctx context.Context, name string) (string, error) {
	token := "random"
	ok, err := s.rdb.SetNX(ctx, "room_lock:"+name, token, 5*time.Second).Result()
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errLocked
	}
	return token, nil
}

func (s *RoomStore) UnlockRoom(ctx context.Context, name, token string) error {
	return s.rdb.Del(ctx, "room_lock:"+name).Err()
}

func (s *RoomStore) StoreRoom(ctx context.Context, name string, room []byte) error {
	return s.rdb.HSet(ctx, "rooms", name, room).Err()
}

// NewPGClient builds a client and records it in the state registry before
// anyone can call its Lock: register, which only the constructor calls on
// the client it is building, runs under no lock (a hard negative).
func NewPGClient(ctx context.Context, db *sql.DB, name string) (*PGClient, error) {
	c := PGClient{db: db, name: name}
	if err := c.register(ctx); err != nil {
		return nil, err
	}
	return &c, nil
}

func (c *PGClient) register(ctx context.Context) error {
	_, err := c.db.ExecContext(ctx, `INSERT INTO state_clients (name, created_at) VALUES ($1, now()) ON CONFLICT (name) DO UPDATE SET created_at = now()`, c.name)
	return err
}

// OpenPGClient builds a client that starts locked: load, which it calls
// after Lock, runs under the lock the client keeps.
func OpenPGClient(ctx context.Context, db *sql.DB, name string) (*PGClient, error) {
	c := PGClient{db: db, name: name}
	if _, err := c.Lock(ctx, &LockInfo{ID: name}); err != nil {
		return nil, err
	}
	if err := c.load(ctx); err != nil {
		return nil, err
	}
	return &c, nil
}

func (c *PGClient) load(ctx context.Context) error {
	_, err := c.db.ExecContext(ctx, `UPDATE states SET opened_at = now() WHERE name = $1`, c.name) // want `ExecContext \(UPDATE states\) writes to SQL database without a fencing token while the PostgreSQL advisory lock taken by pg_try_advisory_lock in PGClient.Lock`
	return err
}
