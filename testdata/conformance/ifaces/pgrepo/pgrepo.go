// Package pgrepo is the PostgreSQL implementation of app.Repo, on pgx.
package pgrepo

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/fencelint/fencelint/testdata/conformance/ifaces/app"
)

// Repo reads and writes invoices through one connection.
type Repo struct{ conn *pgx.Conn }

// New returns a repository on conn.
func New(conn *pgx.Conn) *Repo { return &Repo{conn: conn} }

func (r *Repo) Invoice(ctx context.Context, id int64) (app.Invoice, error) {
	inv := app.Invoice{ID: id}
	err := r.conn.QueryRow(ctx, `SELECT amount, status FROM invoices WHERE id = $1`, id).Scan(&inv.Amount, &inv.Status)
	return inv, err
}

func (r *Repo) MarkPaid(ctx context.Context, id int64) error {
	_, err := r.conn.Exec(ctx, `UPDATE invoices SET status = 'paid' WHERE id = $1`, id)
	return err
}

func (r *Repo) SetStatus(ctx context.Context, id int64, status string, fence int64) error {
	tag, err := r.conn.Exec(ctx, `UPDATE invoices SET status = $2, fence = $3 WHERE id = $1 AND fence < $3`, id, status, fence)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return app.ErrStale
	}
	return nil
}
