// Package redsyncv1 takes redsync v1 locks (github.com/go-redsync/redsync
// v1.x, on redigo pools), whose Mutex has no context methods.
package redsyncv1

import (
	"database/sql"

	"github.com/go-redsync/redsync"
)

// Sender sends each invoice once under a redsync lock.
type Sender struct {
	rs *redsync.Redsync
	db *sql.DB
}

// Send marks the invoice sent with no fence.
func (s *Sender) Send(id string) error {
	m := s.rs.NewMutex("invoice:" + id)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	_, err := s.db.Exec(`UPDATE invoices SET state = 'sent' WHERE id = $1`, id) // want unfencedwrite:"without a fencing token"
	return err
}

// SendFenced passes a fence the database compares: a hard negative (the
// fence comes from the caller, so fencelint assumes the author knows).
func (s *Sender) SendFenced(id string, fence int64) error {
	m := s.rs.NewMutex("invoice:" + id)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	res, err := s.db.Exec(`UPDATE invoices SET state = 'sent', fence = $2 WHERE id = $1 AND fence < $2`, id, fence)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return sql.ErrNoRows
	}
	return nil
}
