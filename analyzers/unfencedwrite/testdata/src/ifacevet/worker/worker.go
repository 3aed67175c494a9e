// Package worker consumes streams under an etcd mutex. It declares the
// interface it needs, and wires its implementation from sqlstore (in the
// same module) itself, so even go vet, which analyzes one package at a
// time, sees what the calls through it do.
package worker

import (
	"context"
	"database/sql"

	"go.etcd.io/etcd/client/v3/concurrency"

	"ifacevet/outbox"
	"ifacevet/sqlstore"
)

type offsets interface {
	Commit(ctx context.Context, stream string, offset int64) error
	Load(ctx context.Context, stream string) (int64, error)
}

type Worker struct {
	session *concurrency.Session
	offsets offsets
	out     outbox.Outbox
}

func New(s *concurrency.Session, db *sql.DB, out outbox.Outbox) *Worker {
	return &Worker{session: s, offsets: sqlstore.New(db), out: out}
}

func (w *Worker) Step(ctx context.Context, stream string) error {
	m := concurrency.NewMutex(w.session, "/locks/"+stream)
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	off, err := w.offsets.Load(ctx, stream) // a read: quiet
	if err != nil {
		return err
	}
	if err := w.out.Publish(ctx, stream, nil); err != nil { // want `Outbox.Publish writes to a shared store without a fencing token while the etcd lock taken by Mutex.Lock`
		return err
	}
	if err := w.out.PublishFenced(ctx, stream, nil, m.Header().Revision); err != nil {
		return err
	}
	if _, err := w.out.Pending(ctx); err != nil {
		return err
	}
	return w.offsets.Commit(ctx, stream, off+1) // want `offsets.Commit \(DB.ExecContext \(UPDATE offsets\) at sqlstore.go:\d+, via \*sqlstore.Offsets.Commit\) writes to SQL database without a fencing token`
}
