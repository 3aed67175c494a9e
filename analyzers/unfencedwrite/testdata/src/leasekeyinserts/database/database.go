// Package database is the PostgreSQL side of a ledger: its migrations
// give the outbox a unique text key (work_id) and transactions a unique
// text reference, which may hold a freshly drawn ID.
package database

import (
	"context"
	"database/sql"
	"embed"

	"github.com/google/uuid"
)

//go:embed sql/*.sql
var Migrations embed.FS

type Outbox struct {
	ID      int64
	WorkID  string
	Kind    string
	Payload []byte
}

type Datasource struct{ Conn *sql.DB }

// InsertOutbox creates the outbox row of a piece of work (INSERT ...
// RETURNING, its error read from Scan): a duplicate work_id fails.
func (d Datasource) InsertOutbox(ctx context.Context, o *Outbox) error {
	return d.Conn.QueryRowContext(ctx, `
		INSERT INTO outbox (work_id, kind, payload)
		VALUES ($1, $2, $3)
		RETURNING id`, o.WorkID, o.Kind, o.Payload).Scan(&o.ID)
}

// UpsertOutbox overwrites the row of the work_id it is given.
func (d Datasource) UpsertOutbox(ctx context.Context, o *Outbox) error {
	_, err := d.Conn.ExecContext(ctx, `
		INSERT INTO outbox (work_id, kind, payload) VALUES ($1, $2, $3)
		ON CONFLICT (work_id) DO UPDATE SET payload = EXCLUDED.payload, attempts = 0`, o.WorkID, o.Kind, o.Payload)
	return err
}

// RecordTransaction inserts a transaction under a fresh ID and the
// reference the caller chooses, unique too.
func (d Datasource) RecordTransaction(ctx context.Context, reference string, amount int64) error {
	_, err := d.Conn.ExecContext(ctx, `INSERT INTO transactions (transaction_id, reference, amount) VALUES ($1, $2, $3)`, uuid.NewString(), reference, amount)
	return err
}

// AddNote inserts under a unique key that may be NULL: a NULL is distinct
// from every other.
func (d Datasource) AddNote(ctx context.Context, key, body string) error {
	_, err := d.Conn.ExecContext(ctx, `INSERT INTO notes (note_key, body) VALUES ($1, $2)`, key, body)
	return err
}
