// Package entstore writes through an ent client under a redsync mutex, as
// a service built on entgo.io/ent does: the client in ent/ has the shape ent
// v0.14 generates for a Doc schema (id, body, fence), compiled against the
// real entgo.io/ent/dialect/sql/sqlgraph, where every write of the client
// ends.
package entstore

import (
	"context"
	"errors"

	"entgo.io/ent/dialect/sql"
	"github.com/go-redsync/redsync/v4"

	"github.com/fencelint/fencelint/testdata/conformance/entstore/ent"
	"github.com/fencelint/fencelint/testdata/conformance/entstore/ent/doc"
)

var errStale = errors.New("a newer holder has written the doc")

// Publisher publishes documents; one publisher at a time holds a doc's
// mutex, and the lease hands out a fencing token.
type Publisher struct {
	rs     *redsync.Redsync
	client *ent.Client
}

// Publish overwrites the body with nothing the database checks.
func (p *Publisher) Publish(ctx context.Context, id int, body string) error {
	m := p.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := p.client.Doc.UpdateOneID(id).SetBody(body).Save(ctx) // want unfencedwrite:"ent.DocUpdateOne.Save \\(UPDATE docs\\) writes to SQL database without a fencing token"
	return err
}

// PublishInTx creates the doc in a transaction: an INSERT a stale holder
// repeats.
func (p *Publisher) PublishInTx(ctx context.Context, body string) error {
	m := p.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	tx, err := p.client.Tx(ctx)
	if err != nil {
		return err
	}
	if _, err := tx.Doc.Create().SetBody(body).Save(ctx); err != nil { // want unfencedwrite:"ent.DocCreate.Save \\(INSERT INTO docs\\)"
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Retract deletes every draft with the body.
func (p *Publisher) Retract(ctx context.Context, body string) error {
	m := p.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := p.client.Doc.Delete().Where(doc.BodyEQ(body)).Exec(ctx) // want unfencedwrite:"ent.DocDelete.Exec \\(DELETE FROM docs\\)"
	return err
}

// PublishFenced is fenced: the update matches the row only while its fence
// is below the token, and UpdateOne fails with a *NotFoundError otherwise.
func (p *Publisher) PublishFenced(ctx context.Context, id int, tok int64, body string) error {
	m := p.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	err := p.client.Doc.UpdateOneID(id).Where(doc.FenceLT(tok)).SetBody(body).SetFence(tok).Exec(ctx)
	if ent.IsNotFound(err) {
		return errStale
	}
	return err
}

// PublishAll is fenced by the count of rows it reads.
func (p *Publisher) PublishAll(ctx context.Context, tok int64, body string) error {
	m := p.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	n, err := p.client.Doc.Update().Where(doc.FenceLT(tok)).SetBody(body).SetFence(tok).Save(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return errStale
	}
	return nil
}

// PublishAllBlind drops the count: the stale holder never learns.
func (p *Publisher) PublishAllBlind(ctx context.Context, tok int64, body string) error {
	m := p.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return p.client.Doc.Update().Where(doc.FenceLT(tok)).SetBody(body).SetFence(tok).Exec(ctx) // want unfencedwrite:"count of rows is never read"
}

// Claim creates the doc only if it is not there: a stale holder's insert
// changes nothing.
func (p *Publisher) Claim(ctx context.Context, id int, body string) error {
	m := p.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return p.client.Doc.Create().SetID(id).SetBody(body).OnConflict().DoNothing().Exec(ctx)
}

// ClaimByID names the conflict target and then what a conflict does:
// Ignore keeps the stored row, so the create is insert-if-absent.
func (p *Publisher) ClaimByID(ctx context.Context, id int, body string) error {
	m := p.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return p.client.Doc.Create().SetID(id).SetBody(body).OnConflict(sql.ConflictColumns(doc.FieldID)).Ignore().Exec(ctx)
}

// UpsertByID names the conflict target and overwrites the row on conflict.
func (p *Publisher) UpsertByID(ctx context.Context, id int, body string) error {
	m := p.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return p.client.Doc.Create().SetID(id).SetBody(body).OnConflict(sql.ConflictColumns(doc.FieldID)).UpdateNewValues().Exec(ctx) // want unfencedwrite:"ent.DocUpsertOne.Exec \\(INSERT INTO docs\\)"
}

// Upsert overwrites the row on conflict.
func (p *Publisher) Upsert(ctx context.Context, id int, body string) error {
	m := p.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return p.client.Doc.Create().SetID(id).SetBody(body).OnConflict().UpdateNewValues().Exec(ctx) // want unfencedwrite:"ent.DocUpsertOne.Exec \\(INSERT INTO docs\\)"
}

// Inspect only reads under the mutex.
func (p *Publisher) Inspect(ctx context.Context, id int) (int, error) {
	m := p.rs.NewMutex("doc")
	if err := m.LockContext(ctx); err != nil {
		return 0, err
	}
	defer m.UnlockContext(ctx)
	if _, err := p.client.Doc.Get(ctx, id); err != nil {
		return 0, err
	}
	if _, err := p.client.Doc.Query().Where(doc.BodyEQ("draft")).All(ctx); err != nil {
		return 0, err
	}
	return p.client.Doc.Query().Count(ctx)
}

// Seed writes before any lease is taken.
func (p *Publisher) Seed(ctx context.Context, body string) error {
	return p.client.Doc.Create().SetBody(body).Exec(ctx)
}
