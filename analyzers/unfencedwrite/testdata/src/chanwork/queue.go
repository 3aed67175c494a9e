package chanwork

import (
	"context"
	"database/sql"
	"net/http"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// A queue fed from the leader and from an HTTP handler: its worker's
// writes are not all the leader's.
type queue struct {
	db      *sql.DB
	session *concurrency.Session
	items   chan int64
}

func (q *queue) Lead(ctx context.Context, ids []int64) error {
	m := concurrency.NewMutex(q.session, "/queue")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	for _, id := range ids {
		q.items <- id
	}
	return nil
}

func (q *queue) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q.items <- 42
}

func (q *queue) drain(ctx context.Context) {
	for id := range q.items {
		q.db.ExecContext(ctx, `UPDATE items SET seen = true WHERE id = $1`, id)
	}
}

// A channel handed in from outside may be sent on where the package
// cannot see; an exported one, by any package.
type relay struct {
	db      *sql.DB
	session *concurrency.Session
	in      chan int64
	Out     chan int64
}

func newRelay(db *sql.DB, in chan int64) *relay {
	return &relay{db: db, in: in, Out: make(chan int64)}
}

func (r *relay) Lead(ctx context.Context, id int64) error {
	m := concurrency.NewMutex(r.session, "/relay")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	r.in <- id
	r.Out <- id
	return nil
}

func (r *relay) consume(ctx context.Context) {
	for {
		select {
		case id := <-r.in:
			r.db.ExecContext(ctx, `UPDATE relayed SET n = n + 1 WHERE id = $1`, id)
		case id := <-r.Out:
			r.db.ExecContext(ctx, `UPDATE relayed SET m = m + 1 WHERE id = $1`, id)
		}
	}
}
