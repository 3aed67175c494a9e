// Package redsynclock holds workers that serialize on a redsync (Redlock)
// mutex. redsync has no fencing token, so every write to another store
// under it needs a token from somewhere else.
package redsynclock

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
)

var errLost = errors.New("invoice lock lost")

// Sender sends invoices; one sender per invoice at a time.
type Sender struct {
	rs  *redsync.Redsync
	rdb *redis.Client
	db  *sql.DB
}

// NewSender wires redsync to the shared Redis.
func NewSender(rdb *redis.Client, db *sql.DB) *Sender {
	return &Sender{rs: redsync.New(goredis.NewPool(rdb)), rdb: rdb, db: db}
}

// Send marks the invoice sent under the mutex: a sender paused past the
// 30 s expiry overwrites the state another sender set meanwhile.
func (s *Sender) Send(ctx context.Context, id string) error {
	m := s.rs.NewMutex("invoice:"+id, redsync.WithExpiry(30*time.Second), redsync.WithTries(1))
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if err := deliver(ctx, id); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `UPDATE invoices SET state = 'sent', sent_at = now() WHERE id = $1`, id) // want unfencedwrite:"without a fencing token"
	return err
}

// SendIfStillValid re-checks the mutex on every node first: the mutex can
// expire between the check and the write.
func (s *Sender) SendIfStillValid(ctx context.Context, id string) error {
	m := s.rs.NewMutex("invoice:" + id)
	if err := m.TryLockContext(ctx); err != nil {
		return nil
	}
	defer m.UnlockContext(ctx)
	if err := deliver(ctx, id); err != nil {
		return err
	}
	if ok, err := m.ValidContext(ctx); err != nil || !ok { // want heldcheck:"only tells that the lease was held"
		return errLost
	}
	return s.rdb.Set(ctx, "invoice:"+id+":state", "sent", 0).Err() // want unfencedwrite:"without a fencing token"
}

// SendWithValueFence uses the mutex's random value as the fence.
func (s *Sender) SendWithValueFence(ctx context.Context, id string) error {
	m := s.rs.NewMutex("invoice:" + id)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	res, err := s.db.ExecContext(ctx, `UPDATE invoices SET state = 'sent', fence = $2 WHERE id = $1 AND fence < $2`, id, m.Value()) // want weaktoken:"is not a fencing token"
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errLost
	}
	return nil
}

// SendWithSequenceFence draws the fence from a sequence after taking the
// lock: a sender paused between Lock and nextval gets a larger token than
// the sender that took over.
func (s *Sender) SendWithSequenceFence(ctx context.Context, id string) error {
	m := s.rs.NewMutex("invoice:" + id)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	var fence int64
	if err := s.db.QueryRowContext(ctx, `SELECT nextval('invoice_fence')`).Scan(&fence); err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, `UPDATE invoices SET state = 'sent', fence = $2 WHERE id = $1 AND fence < $2`, id, fence) // want weaktoken:"is not a fencing token"
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errLost
	}
	return nil
}

// SendExtending keeps the mutex alive from a goroutine that gives up
// silently: the send goes on after the mutex is gone.
func (s *Sender) SendExtending(ctx context.Context, id string) error {
	m := s.rs.NewMutex("invoice:"+id, redsync.WithExpiry(10*time.Second))
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	done := make(chan struct{})
	defer close(done)
	go func() { // want detachedrenewal:"never hears"
		t := time.NewTicker(3 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if ok, err := m.ExtendContext(ctx); err != nil || !ok {
					log.Printf("invoice %s: extend failed: %v", id, err)
					return
				}
			}
		}
	}()
	if err := deliver(ctx, id); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `UPDATE invoices SET state = 'sent' WHERE id = $1`, id) // want unfencedwrite:"without a fencing token"
	return err
}

// SendExtendingWithCancel stops the work when an extension fails; the write
// is still unfenced, but the renewal is wired to the work.
func (s *Sender) SendExtendingWithCancel(ctx context.Context, id string) error {
	m := s.rs.NewMutex("invoice:"+id, redsync.WithExpiry(10*time.Second))
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(context.Background())
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		t := time.NewTicker(3 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if ok, err := m.ExtendContext(ctx); err != nil || !ok {
					cancel()
					return
				}
			}
		}
	}()
	if err := deliver(ctx, id); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `UPDATE invoices SET state = 'sent' WHERE id = $1`, id) // want unfencedwrite:"without a fencing token"
	return err
}

// Peek holds the mutex while it reads and reports; nothing is written.
func (s *Sender) Peek(ctx context.Context, id string) (string, error) {
	m := s.rs.NewMutex("invoice:" + id)
	if err := m.LockContext(ctx); err != nil {
		return "", err
	}
	defer m.UnlockContext(ctx)
	state, err := s.rdb.Get(ctx, "invoice:"+id+":state").Result()
	if errors.Is(err, redis.Nil) {
		var dbState string
		err = s.db.QueryRowContext(ctx, `SELECT state FROM invoices WHERE id = $1`, id).Scan(&dbState)
		state = dbState
	}
	log.Printf("invoice %s: state %q, lock held until %s", id, state, m.Until().Format(time.RFC3339))
	return state, err
}

func deliver(ctx context.Context, id string) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(10 * time.Millisecond):
		return nil
	}
}

// SendBeforeDeadline trusts redsync's local estimate of the expiry.
func (s *Sender) SendBeforeDeadline(ctx context.Context, id string) error {
	m := s.rs.NewMutex("invoice:" + id)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if time.Until(m.Until()) < time.Second { // want heldcheck:"only tells that the lease was held"
		return errLost
	}
	return s.rdb.Set(ctx, "invoice:"+id+":state", "sent", 0).Err() // want unfencedwrite:"without a fencing token"
}
