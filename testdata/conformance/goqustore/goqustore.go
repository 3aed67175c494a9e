// Package goqustore is a scheduler that runs one tenant's billing while it
// holds a MySQL GET_LOCK, and records the run with the real goqu: unfenced
// writes, fenced twins that read RowsAffected, and an insert-if-absent.
package goqustore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/doug-martin/goqu/v9"
	_ "github.com/doug-martin/goqu/v9/dialect/mysql"
)

var errStale = errors.New("stale fence: a newer run has written")

// Billing runs tenants' billing.
type Billing struct {
	db   *sql.DB
	conn *sql.Conn
	gq   *goqu.Database
}

// New wraps db for goqu's MySQL dialect.
func New(db *sql.DB, conn *sql.Conn) *Billing {
	return &Billing{db: db, conn: conn, gq: goqu.New("mysql", db)}
}

func (b *Billing) lock(ctx context.Context, tenant string) error {
	var got int
	if err := b.conn.QueryRowContext(ctx, "SELECT GET_LOCK(?, 10)", "billing:"+tenant).Scan(&got); err != nil {
		return err
	}
	if got != 1 {
		return errors.New("tenant is being billed elsewhere")
	}
	return nil
}

func changed(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errStale
	}
	return nil
}

// Close closes the tenant's period.
func (b *Billing) Close(ctx context.Context, tenant string, period int, tok int64) error {
	if err := b.lock(ctx, tenant); err != nil {
		return err
	}
	if _, err := b.gq.Update("periods").Set(goqu.Record{"closed": true}).
		Where(goqu.Ex{"tenant": tenant, "period": period}).Executor().ExecContext(ctx); err != nil { // want unfencedwrite:"QueryExecutor.ExecContext \\(UPDATE periods\\) writes to SQL database without a fencing token"
		return err
	}
	if err := changed(b.gq.Update("periods").Set(goqu.Record{"closed": true, "fence": tok}).
		Where(goqu.C("tenant").Eq(tenant), goqu.C("period").Eq(period), goqu.C("fence").Lt(tok)).
		Executor().ExecContext(ctx)); err != nil {
		return err
	}
	if _, err := b.gq.Insert("invoices").Rows(goqu.Record{"tenant": tenant, "period": period}).
		OnConflict(goqu.DoNothing()).Executor().ExecContext(ctx); err != nil {
		return err
	}
	q, args, err := b.gq.Delete("drafts").Where(goqu.Ex{"tenant": tenant}).ToSQL()
	if err != nil {
		return err
	}
	_, err = b.db.ExecContext(ctx, q, args...) // want unfencedwrite:"DB.ExecContext \\(DELETE drafts\\) writes to SQL database without a fencing token"
	return err
}

// Reopen reopens the period through a dataset: its Update keeps the
// dataset's table and WHERE clause (goqu copies them), so the fence there
// fences the update; the twin's dataset selects by key only.
func (b *Billing) Reopen(ctx context.Context, tenant string, period int, tok int64) error {
	if err := b.lock(ctx, tenant); err != nil {
		return err
	}
	periods := b.gq.From("periods").Where(goqu.C("tenant").Eq(tenant), goqu.C("period").Eq(period))
	if err := changed(periods.Where(goqu.C("fence").Lt(tok)).Update().Set(goqu.Record{"closed": false, "fence": tok}).Executor().ExecContext(ctx)); err != nil {
		return err
	}
	_, err := periods.Update().Set(goqu.Record{"closed": false}).Executor().ExecContext(ctx) // want unfencedwrite:"QueryExecutor.ExecContext \\(UPDATE periods\\) writes to SQL database without a fencing token"
	return err
}
