// Package rowclaims pays out approved payouts under a redsync lock, each in
// a transaction that locks the payout's row, reads its state again and
// gives up unless it is still approved, then marks it paid: a claim the
// store makes, written with the real GORM (clause.LockingStrengthUpdate),
// database/sql, sqlx and pgx. Locks outside the transaction, and a bound
// in place of a state, stay reported.
package rowclaims

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

type Payout struct {
	ID     int64
	Wallet int64
	Amount int64
	State  string
	PaidAt time.Time
}

type Wallet struct {
	ID      int64
	Balance int64
	Held    int64
}

type Ledger struct {
	ID     int64
	Payout int64
	Amount int64
}

type Payer struct {
	orm  *gorm.DB
	db   *sql.DB
	dbx  *sqlx.DB
	pool *pgxpool.Pool
	rs   *redsync.Redsync
}

var errNotApproved = errors.New("payout not approved")

func (p *Payer) lock(ctx context.Context) (*redsync.Mutex, error) {
	m := p.rs.NewMutex("payouts")
	return m, m.LockContext(ctx)
}

// PayORM claims the payout through GORM's transaction and locking clause.
func (p *Payer) PayORM(ctx context.Context, id int64) error {
	m, err := p.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return p.orm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var po Payout
		if err := tx.Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate}).First(&po, id).Error; err != nil {
			return err
		}
		if po.State != "approved" {
			return errNotApproved
		}
		if err := tx.Model(&Wallet{}).Where("id = ?", po.Wallet).Update("balance", gorm.Expr("balance - ?", po.Amount)).Error; err != nil {
			return err
		}
		if err := tx.Create(&Ledger{Payout: po.ID, Amount: -po.Amount}).Error; err != nil {
			return err
		}
		return tx.Model(&Payout{}).Where("id = ?", po.ID).Updates(map[string]any{"state": "paid", "paid_at": time.Now()}).Error
	})
}

// PayUnlockedRead reads the payout through the pool, outside the
// transaction: its row lock ends with the read.
func (p *Payer) PayUnlockedRead(ctx context.Context, id int64) error {
	m, err := p.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return p.orm.Transaction(func(tx *gorm.DB) error {
		var po Payout
		if err := p.orm.Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate}).First(&po, id).Error; err != nil {
			return err
		}
		if po.State != "approved" {
			return errNotApproved
		}
		return tx.Model(&Payout{}).Where("id = ?", po.ID).Update("state", "paid").Error // want unfencedwrite:"DB.Update \\(UPDATE payouts\\) writes to SQL database without a fencing token"
	})
}

// PaySQL claims the payout with database/sql on MySQL.
func (p *Payer) PaySQL(ctx context.Context, id int64) error {
	m, err := p.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	tx, err := p.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var state string
	var wallet, amount int64
	if err := tx.QueryRowContext(ctx, "SELECT state, wallet, amount FROM payouts WHERE id = ? FOR UPDATE", id).Scan(&state, &wallet, &amount); err != nil {
		return err
	}
	if state != "approved" {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "UPDATE wallets SET balance = balance - ? WHERE id = ?", amount, wallet); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE payouts SET state = 'paid' WHERE id = ?", id); err != nil {
		return err
	}
	return tx.Commit()
}

// PaySQLX claims the payout with sqlx's Get on PostgreSQL.
func (p *Payer) PaySQLX(ctx context.Context, id int64) error {
	m, err := p.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	tx, err := p.dbx.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var po struct {
		State  string `db:"state"`
		Wallet int64  `db:"wallet"`
		Amount int64  `db:"amount"`
	}
	if err := tx.GetContext(ctx, &po, `SELECT state, wallet, amount FROM payouts WHERE id = $1 FOR NO KEY UPDATE`, id); err != nil {
		return err
	}
	if po.State == "paid" {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, po.Amount, po.Wallet); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE payouts SET state = 'paid', paid_at = now() WHERE id = $1`, id); err != nil {
		return err
	}
	return tx.Commit()
}

// PayPgx claims the payout with pgx, and releases the wallet's hold when
// enough is held: a bound the next holder passes too.
func (p *Payer) PayPgx(ctx context.Context, id, hold int64) error {
	m, err := p.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var held int64
	if err := tx.QueryRow(ctx, `SELECT held FROM wallets WHERE id = $1 FOR UPDATE`, id).Scan(&held); err != nil {
		return err
	}
	if held < hold {
		return errNotApproved
	}
	if _, err := tx.Exec(ctx, `UPDATE wallets SET held = held - $1, balance = balance + $1 WHERE id = $2`, hold, id); err != nil { // want unfencedwrite:"Tx.Exec \\(UPDATE wallets\\) writes to PostgreSQL without a fencing token"
		return err
	}
	var state string
	if err := tx.QueryRow(ctx, `SELECT state FROM payouts WHERE id = $1 FOR UPDATE`, id).Scan(&state); err != nil {
		return err
	}
	if state != "approved" {
		return errNotApproved
	}
	if _, err := tx.Exec(ctx, `UPDATE payouts SET state = 'paid' WHERE id = $1`, id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
