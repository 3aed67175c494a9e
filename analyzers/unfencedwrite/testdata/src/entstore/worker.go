// Package entstore writes through an ent client (generated; the
// conformance case's, testdata/conformance/entstore/ent, here compiled
// against the stubs) under a redsync lock: every write of the client ends
// in a sqlgraph call in the generated code, and reaches the worker through
// the builders' Save and Exec.
package entstore

import (
	"context"
	"errors"

	"entgo.io/ent/dialect/sql"
	"github.com/go-redsync/redsync/v4"

	"github.com/fencelint/fencelint/testdata/conformance/entstore/ent"
	"github.com/fencelint/fencelint/testdata/conformance/entstore/ent/doc"
)

var errStale = errors.New("stale fence")

type Worker struct {
	rs     *redsync.Redsync
	client *ent.Client
}

func (w *Worker) UpdateBody(ctx context.Context, id int, body string) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	_, err := w.client.Doc.UpdateOneID(id).SetBody(body).Save(ctx) // want `UPDATE docs`
	return err
}

func (w *Worker) CreateInTx(ctx context.Context, body string) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	tx, err := w.client.Tx(ctx)
	if err != nil {
		return err
	}
	if _, err := tx.Doc.Create().SetBody(body).Save(ctx); err != nil { // want `INSERT INTO docs`
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func (w *Worker) Purge(ctx context.Context, body string) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	_, err := w.client.Doc.Delete().Where(doc.BodyEQ(body)).Exec(ctx) // want `DELETE FROM docs`
	return err
}

func (w *Worker) RemoveOne(ctx context.Context, id int) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	return w.client.Doc.DeleteOneID(id).Exec(ctx) // want `DELETE FROM docs`
}

func (w *Worker) Import(ctx context.Context, bodies []string) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	builders := make([]*ent.DocCreate, len(bodies))
	for i, b := range bodies {
		builders[i] = w.client.Doc.Create().SetBody(b)
	}
	_, err := w.client.Doc.CreateBulk(builders...).Save(ctx) // want `INSERT INTO`
	return err
}

func (w *Worker) Upsert(ctx context.Context, id int, body string) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	return w.client.Doc.Create().SetID(id).SetBody(body).OnConflict().UpdateNewValues().Exec(ctx) // want `INSERT INTO docs`
}

// Reads under the lock write nothing.
func (w *Worker) Read(ctx context.Context, id int) (int, error) {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return 0, err
	}
	defer m.Unlock()
	if _, err := w.client.Doc.Get(ctx, id); err != nil {
		return 0, err
	}
	if _, err := w.client.Doc.Query().Where(doc.BodyEQ("x")).All(ctx); err != nil {
		return 0, err
	}
	if _, err := w.client.Doc.Query().Where(doc.ID(id)).Only(ctx); err != nil {
		return 0, err
	}
	return w.client.Doc.Query().Count(ctx)
}

// A write outside any lease region is not reported.
func (w *Worker) Seed(ctx context.Context, body string) error {
	return w.client.Doc.Create().SetBody(body).Exec(ctx)
}

// Fenced: the update compares the fence column with the token, and a
// stale holder's update matches no row, which UpdateOne reports as a
// *NotFoundError the caller returns.
func (w *Worker) FencedUpdate(ctx context.Context, id int, tok int64, body string) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	return w.client.Doc.UpdateOneID(id).Where(doc.FenceLT(tok)).SetBody(body).SetFence(tok).Exec(ctx)
}

func (w *Worker) FencedSave(ctx context.Context, id int, tok int64, body string) (*ent.Doc, error) {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return nil, err
	}
	defer m.Unlock()
	d, err := w.client.Doc.UpdateOneID(id).Where(doc.FenceLT(tok)).SetBody(body).SetFence(tok).Save(ctx)
	if ent.IsNotFound(err) {
		return nil, err
	}
	return d, err
}

// Many rows: fenced when the count is read.
func (w *Worker) FencedMany(ctx context.Context, tok int64, body string) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	n, err := w.client.Doc.Update().Where(doc.FenceLT(tok)).SetBody(body).SetFence(tok).Save(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return errStale
	}
	return nil
}

// Update's Exec drops the count: the stale holder never learns it lost.
func (w *Worker) FencedManyBlind(ctx context.Context, tok int64, body string) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	return w.client.Doc.Update().Where(doc.FenceLT(tok)).SetBody(body).SetFence(tok).Exec(ctx) // want `count of rows is never read`
}

// The error of a fenced UpdateOne dropped: unchecked.
func (w *Worker) FencedDropped(ctx context.Context, id int, tok int64, body string) {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return
	}
	defer m.Unlock()
	w.client.Doc.UpdateOneID(id).Where(doc.FenceLT(tok)).SetBody(body).SetFence(tok).Exec(ctx) // want `its error .a \*NotFoundError when no row matches. is never read`
}

// A fence compared the wrong way round (fence > tok) fences nothing. A
// keyed state transition does, as in SQL text: the row changes only while
// it is still a draft, and UpdateOne fails when it is not.
func (w *Worker) WrongWay(ctx context.Context, id int, tok int64, body string) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	if err := w.client.Doc.UpdateOneID(id).Where(doc.FenceGT(tok)).SetFence(tok).Exec(ctx); err != nil { // want `UPDATE docs`
		return err
	}
	return w.client.Doc.UpdateOneID(id).Where(doc.BodyEQ("draft")).SetBody(body).Exec(ctx)
}

// Publish moves a draft and drops the outcome: a transition is safe by
// itself (a holder that lost matches nothing), unlike a token-fenced
// write whose refusal nobody reads (FencedDropped, above).
func (w *Worker) Publish(ctx context.Context, id int, body string) {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return
	}
	defer m.Unlock()
	w.client.Doc.UpdateOneID(id).Where(doc.BodyEQ("draft")).SetBody(body).Exec(ctx)
}

// Insert-if-absent: OnConflict with DoNothing adds the row only if it is
// not there; a stale holder's insert changes nothing.
func (w *Worker) CreateIfAbsent(ctx context.Context, id int, body string) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	return w.client.Doc.Create().SetID(id).SetBody(body).OnConflict().DoNothing().Exec(ctx)
}

// A builder handed in from elsewhere: its Where predicates are out of sight.
func (w *Worker) Apply(ctx context.Context, u *ent.DocUpdateOne) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	return u.Exec(ctx) // want `could not see its Where predicates`
}

// DoNothing given as OnConflict's option is insert-if-absent too; an
// update anywhere in the conflict clause makes an upsert.
func (w *Worker) CreateIfAbsentOpt(ctx context.Context, id int, body string) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	if err := w.client.Doc.Create().SetID(id).SetBody(body).OnConflict(sql.DoNothing()).Exec(ctx); err != nil {
		return err
	}
	if err := w.client.Doc.Create().SetID(id).SetBody(body).OnConflict(sql.ConflictColumns(doc.FieldID), sql.DoNothing()).Exec(ctx); err != nil {
		return err
	}
	if err := w.client.Doc.Create().SetID(id).SetBody(body).OnConflict(sql.ConflictColumns(doc.FieldID), sql.ResolveWithNewValues()).Exec(ctx); err != nil { // want `ent.DocUpsertOne.Exec \(INSERT INTO docs\)`
		return err
	}
	return w.client.Doc.Create().SetID(id).SetBody(body).OnConflict().DoNothing().UpdateNewValues().Exec(ctx) // want `ent.DocUpsertOne.Exec \(INSERT INTO docs\)`
}

// A conflict target alone sets no action; the call chained after it does:
// Ignore keeps the stored row (insert-if-absent), UpdateNewValues
// overwrites it (an upsert).
func (w *Worker) CreateIfAbsentTarget(ctx context.Context, id int, body string) error {
	m := w.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	if err := w.client.Doc.Create().SetID(id).SetBody(body).OnConflict(sql.ConflictColumns(doc.FieldID)).Ignore().Exec(ctx); err != nil {
		return err
	}
	return w.client.Doc.Create().SetID(id).SetBody(body).OnConflict(sql.ConflictColumns(doc.FieldID)).UpdateNewValues().Exec(ctx) // want `ent.DocUpsertOne.Exec \(INSERT INTO docs\)`
}
