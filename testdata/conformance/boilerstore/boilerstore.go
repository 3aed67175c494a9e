// Package boilerstore is a billing worker that owns an account through a
// PostgreSQL advisory lock on a dedicated connection and books through the
// models sqlboiler generated, against the real sqlboiler runtime: unfenced
// UpdateAll and DeleteAll, fenced twins that read the count, and raw SQL
// through queries.Raw.
package boilerstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/aarondl/sqlboiler/v4/boil"
	"github.com/aarondl/sqlboiler/v4/queries"
	"github.com/aarondl/sqlboiler/v4/queries/qm"

	"github.com/fencelint/fencelint/testdata/conformance/boilerstore/models"
)

var errStale = errors.New("stale fence: a newer owner has booked")

// Biller books one account at a time.
type Biller struct {
	db   *sql.DB
	conn *sql.Conn
}

func (b *Biller) own(ctx context.Context, account int64) error {
	var ok bool
	if err := b.conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", account).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return errors.New("account is being billed elsewhere")
	}
	return nil
}

// Charge sets the balance it computed by the account's id alone.
func (b *Biller) Charge(ctx context.Context, account, balance int64) error {
	if err := b.own(ctx, account); err != nil {
		return err
	}
	_, err := models.Accounts(qm.Where("id = ?", account)).UpdateAll(ctx, b.db, models.M{"balance": balance}) // want unfencedwrite:"accountQuery.UpdateAll \\(UPDATE accounts\\) writes to SQL database without a fencing token"
	return err
}

// ChargeFenced compares the fence and gives up when no row matched.
func (b *Biller) ChargeFenced(ctx context.Context, account, balance, tok int64) error {
	if err := b.own(ctx, account); err != nil {
		return err
	}
	n, err := models.Accounts(qm.Where("id = ?", account), qm.And("fence < ?", tok)).UpdateAll(ctx, b.db, models.M{"balance": balance, "fence": tok})
	if err != nil {
		return err
	}
	if n == 0 {
		return errStale
	}
	return nil
}

// Close deletes the account's row, unfenced.
func (b *Biller) Close(ctx context.Context, account int64) error {
	if err := b.own(ctx, account); err != nil {
		return err
	}
	_, err := models.Accounts(qm.Where("id = ?", account)).DeleteAll(ctx, b.db) // want unfencedwrite:"accountQuery.DeleteAll \\(DELETE accounts\\) writes to SQL database without a fencing token"
	return err
}

// Suspend writes raw SQL without a fence.
func (b *Biller) Suspend(ctx context.Context, account int64) error {
	if err := b.own(ctx, account); err != nil {
		return err
	}
	_, err := queries.Raw("UPDATE accounts SET status = 'suspended' WHERE id = $1", account).Exec(b.db) // want unfencedwrite:"queries.Raw \\(UPDATE accounts\\) writes to SQL database without a fencing token"
	return err
}

// SuspendFenced puts the fence in the raw SQL and reads the count.
func (b *Biller) SuspendFenced(ctx context.Context, account, tok int64) error {
	if err := b.own(ctx, account); err != nil {
		return err
	}
	res, err := queries.Raw("UPDATE accounts SET status = 'suspended', fence = $2 WHERE id = $1 AND fence < $2", account, tok).Exec(b.db)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errStale
	}
	return nil
}

// Overdrawn reads: no write.
func (b *Biller) Overdrawn(ctx context.Context, account int64) ([]*models.Account, error) {
	if err := b.own(ctx, account); err != nil {
		return nil, err
	}
	var total struct{ Sum int64 }
	if err := queries.Raw("SELECT sum(balance) AS sum FROM accounts WHERE balance < 0").Bind(ctx, b.db, &total); err != nil {
		return nil, err
	}
	return models.Accounts(qm.Where("balance < ?", 0), qm.OrderBy("id"), qm.Limit(100)).All(ctx, b.db)
}

// Freeze writes the account back through the generated Update, which
// updates by primary key alone: unfenced.
func (b *Biller) Freeze(ctx context.Context, a *models.Account) error {
	if err := b.own(ctx, a.ID); err != nil {
		return err
	}
	a.Status = "frozen"
	_, err := a.Update(ctx, b.db, boil.Whitelist("status")) // want unfencedwrite:"Account.Update \\(ContextExecutor.ExecContext \\(UPDATE accounts\\).*writes to SQL database without a fencing token"
	return err
}

// Open adds an account row through the generated Insert: a stale holder
// adds a second account for the same customer.
func (b *Biller) Open(ctx context.Context, customer int64) error {
	if err := b.own(ctx, customer); err != nil {
		return err
	}
	a := &models.Account{Status: "open"}
	return a.Insert(ctx, b.db, boil.Infer()) // want unfencedwrite:"Account.Insert \\(ContextExecutor.(Exec|QueryRow)Context \\(INSERT accounts\\).*still adds its rows"
}
