// Package chanwork is a leader that does not write itself: it sends the
// due jobs to workers a constructor started, and the workers write. What a
// worker does with a job received from a channel every send on which is
// made under the lease is done under that lease.
package chanwork

import (
	"context"
	"database/sql"
	"time"

	"go.etcd.io/etcd/client/v3/concurrency"
)

type job struct {
	id    int64
	owner string
}

type dispatcher struct {
	db      *sql.DB
	session *concurrency.Session
	jobs    chan job
	retries chan job
	wake    chan struct{}
}

func newDispatcher(db *sql.DB, s *concurrency.Session) *dispatcher {
	d := &dispatcher{db: db, session: s, jobs: make(chan job, 16), retries: make(chan job), wake: make(chan struct{})}
	go d.work(context.Background())
	go d.retry(context.Background(), d.retries)
	go d.waker(context.Background())
	return d
}

// Run sends the due jobs while it holds the lock.
func (d *dispatcher) Run(ctx context.Context, due []job) error {
	m := concurrency.NewMutex(d.session, "/dispatch")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	for _, j := range due {
		d.jobs <- j
	}
	select {
	case d.retries <- due[0]:
	case <-ctx.Done():
	}
	d.wake <- struct{}{}
	return nil
}

// work's loop body runs under the lock of every send: its write is the
// stale leader's. What it does before and after the loop is not.
func (d *dispatcher) work(ctx context.Context) {
	d.db.ExecContext(ctx, `UPDATE workers SET state = 'up'`)
	for j := range d.jobs {
		d.db.ExecContext(ctx, `UPDATE jobs SET owner = $1 WHERE id = $2`, j.owner, j.id) // want `DB.ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token while the etcd lock taken by Mutex.Lock \(line 39, in dispatcher.Run, under which every send on jobs is made\) is held`
	}
	d.db.ExecContext(ctx, `UPDATE workers SET state = 'down'`)
}

// retry gets the channel as a parameter; a select's other case is not the
// channel's work.
func (d *dispatcher) retry(ctx context.Context, in <-chan job) {
	tick := time.NewTicker(time.Minute)
	for {
		select {
		case j := <-in:
			d.db.ExecContext(ctx, `UPDATE jobs SET attempts = attempts + 1 WHERE id = $1`, j.id) // want `DB.ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token while the etcd lock taken by Mutex.Lock \(line 39, in dispatcher.Run, under which every send on retries is made\) is held`
		case <-tick.C:
			d.db.ExecContext(ctx, `DELETE FROM jobs WHERE done`)
		}
	}
}

// waker's channel is a signal, not work.
func (d *dispatcher) waker(ctx context.Context) {
	for range d.wake {
		d.db.ExecContext(ctx, `UPDATE workers SET woken = now()`)
	}
}

// spawner starts a goroutine per job: the closure does the job's work
// under the lock of every send, as the loop body would.
type spawner struct {
	db   *sql.DB
	mu   *concurrency.Mutex
	jobs chan job
	done []func()
}

func newSpawner(db *sql.DB, mu *concurrency.Mutex) *spawner {
	s := &spawner{db: db, mu: mu, jobs: make(chan job)}
	go s.spawn(context.Background())
	return s
}

func (s *spawner) Run(ctx context.Context, due []job) error {
	if err := s.mu.Lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock(ctx)
	for _, j := range due {
		s.jobs <- j
	}
	return nil
}

func (s *spawner) spawn(ctx context.Context) {
	for j := range s.jobs {
		go func() {
			s.db.ExecContext(ctx, `UPDATE jobs SET owner = $1 WHERE id = $2`, j.owner, j.id) // want `DB.ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token while the etcd lock taken by Mutex.Lock \(line \d+, in spawner.Run, under which every send on jobs is made\) is held`
		}()
		// Kept for later, the closure runs when something else calls it,
		// under whatever that holds: not the job's work here.
		s.done = append(s.done, func() {
			s.db.ExecContext(ctx, `UPDATE jobs SET acked = true WHERE id = $1`, j.id)
		})
	}
}
