// Package rowclaims settles orders and starts jobs under redsync locks,
// inside transactions that lock the row (SELECT ... FOR UPDATE, GORM's
// clause.Locking), read it again and give up when another holder moved
// it: a claim the store makes, which fences what the transaction writes
// after it. Transactions that lock without giving up, give up without
// moving the row, or write around the re-check stay reported.
package rowclaims

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/jmoiron/sqlx"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

const (
	pending = iota
	settled
)

type Order struct {
	ID        int64
	Account   int64
	Amount    int64
	Status    int
	Frozen    bool
	TouchedAt time.Time
}

type Account struct {
	ID      int64
	Balance int64
	Pending int64
}

type Service struct {
	db  *gorm.DB
	sql *sql.DB
	sqx *sqlx.DB
	rs  *redsync.Redsync
}

var (
	errBusy  = errors.New("busy")
	errShort = errors.New("not enough pending")
)

func (s *Service) lock(ctx context.Context, name string) (*redsync.Mutex, error) {
	m := s.rs.NewMutex(name)
	if err := m.LockContext(ctx); err != nil {
		return nil, errBusy
	}
	return m, nil
}

// Settle credits the account once: the order row is locked and read
// again, and a holder that finds it settled gives up.
func (s *Service) Settle(ctx context.Context, id int64) error {
	m, err := s.lock(ctx, "settle")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return s.db.Transaction(func(tx *gorm.DB) error {
		var o Order
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).First(&o).Error; err != nil {
			return err
		}
		if o.Status != pending {
			return nil
		}
		if err := tx.Model(&Account{}).Where("id = ?", o.Account).Update("balance", gorm.Expr("balance + ?", o.Amount)).Error; err != nil {
			return err
		}
		return tx.Model(&Order{}).Where("id = ?", o.ID).Update("status", settled).Error
	})
}

// SettleTouched stamps the order before it re-checks it: that write is
// made whoever holds the row.
func (s *Service) SettleTouched(ctx context.Context, id int64) error {
	m, err := s.lock(ctx, "settle")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return s.db.Transaction(func(tx *gorm.DB) error {
		var o Order
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).First(&o).Error; err != nil {
			return err
		}
		tx.Model(&Order{}).Where("id = ?", id).Update("touched_at", time.Now()) // want `DB.Update \(UPDATE orders\) writes to SQL database without a fencing token`
		if o.Status != pending {
			return nil
		}
		return tx.Model(&Order{}).Where("id = ?", o.ID).Update("status", settled).Error
	})
}

// Recredit locks the account and adds to it with no re-check: every
// holder, stale or not, adds again.
func (s *Service) Recredit(ctx context.Context, id, amount int64) error {
	m, err := s.lock(ctx, "credit")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return s.db.Transaction(func(tx *gorm.DB) error {
		var a Account
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(&a, id).Error; err != nil {
			return err
		}
		return tx.Model(&a).Update("balance", a.Balance+amount).Error // want `DB.Update \(UPDATE accounts\) writes to SQL database without a fencing token`
	})
}

// CreditUnmoved re-checks the order but never settles it: the next holder
// finds it pending too, and credits again.
func (s *Service) CreditUnmoved(ctx context.Context, id int64) error {
	m, err := s.lock(ctx, "settle")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return s.db.Transaction(func(tx *gorm.DB) error {
		var o Order
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).First(&o).Error; err != nil {
			return err
		}
		if o.Status != pending {
			return nil
		}
		return tx.Model(&Account{}).Where("id = ?", o.Account).Update("balance", gorm.Expr("balance + ?", o.Amount)).Error // want `DB.Update \(UPDATE accounts\) writes to SQL database without a fencing token`
	})
}

// SettleOutside locks the row through the service's handle, outside the
// transaction: the lock is let go as soon as the read returns.
func (s *Service) SettleOutside(ctx context.Context, id int64) error {
	m, err := s.lock(ctx, "settle")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return s.db.Transaction(func(tx *gorm.DB) error {
		var o Order
		if err := s.db.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).First(&o).Error; err != nil {
			return err
		}
		if o.Status != pending {
			return nil
		}
		return tx.Model(&Order{}).Where("id = ?", o.ID).Update("status", settled).Error // want `DB.Update \(UPDATE orders\) writes to SQL database without a fencing token`
	})
}

// SettleEither decides on what it read, but neither branch gives up.
func (s *Service) SettleEither(ctx context.Context, id int64) error {
	m, err := s.lock(ctx, "settle")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return s.db.Transaction(func(tx *gorm.DB) error {
		var o Order
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).First(&o).Error; err != nil {
			return err
		}
		status := settled
		if o.Amount == 0 {
			status = pending
		}
		return tx.Model(&Order{}).Where("id = ?", o.ID).Update("status", status).Error // want `DB.Update \(UPDATE orders\) writes to SQL database without a fencing token`
	})
}

// SettleShard locks a row of the month's shard, named at run time, and
// settles it in the same shard; the ledger row goes to another shard
// after the re-check, so it is fenced too, while the shard it did not
// lock is not moved in SettleElsewhere.
func (s *Service) SettleShard(ctx context.Context, shard string, id int64) error {
	m, err := s.lock(ctx, "settle:"+shard)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return s.db.Transaction(func(tx *gorm.DB) error {
		var o Order
		if err := tx.Table(shard).Clauses(clause.Locking{Strength: "UPDATE"}).Select("id", "status").Where("id = ?", id).First(&o).Error; err != nil {
			return err
		}
		if o.Status != pending {
			return nil
		}
		return tx.Table(shard).Where("id = ?", o.ID).Updates(map[string]interface{}{"status": settled, "touched_at": time.Now()}).Error
	})
}

func (s *Service) SettleElsewhere(ctx context.Context, shard, other string, id int64) error {
	m, err := s.lock(ctx, "settle:"+shard)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return s.db.Transaction(func(tx *gorm.DB) error {
		var o Order
		if err := tx.Table(shard).Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).First(&o).Error; err != nil {
			return err
		}
		if o.Status != pending {
			return nil
		}
		return tx.Table(other).Where("id = ?", o.ID).Update("status", settled).Error // want `DB.Update \(UPDATE <run-time name>\) writes to SQL database without a fencing token`
	})
}

// SettleSaved moves the status on the struct it read and saves it whole.
func (s *Service) SettleSaved(ctx context.Context, id int64) error {
	m, err := s.lock(ctx, "settle")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return s.db.Transaction(func(tx *gorm.DB) error {
		var o Order
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(&o, id).Error; err != nil {
			return err
		}
		if o.Status == settled {
			return nil
		}
		o.Status = settled
		return tx.Save(&o).Error
	})
}

// Release moves a hold from pending to the balance when enough is
// pending: a bound, not a claim. A stale holder finds enough pending too
// (the next holder's hold), and releases again.
func (s *Service) Release(ctx context.Context, id, amount int64) error {
	m, err := s.lock(ctx, "credit")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return s.db.Transaction(func(tx *gorm.DB) error {
		var a Account
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(&a, id).Error; err != nil {
			return err
		}
		if a.Pending < amount {
			return errShort
		}
		a.Pending -= amount
		a.Balance += amount
		return tx.Save(&a).Error // want `DB.Save \(UPDATE accounts\) writes to SQL database without a fencing token`
	})
}

// SettleUnfrozen gives up on a frozen order, a flag it never moves: the
// next holder finds the order unfrozen and pending too.
func (s *Service) SettleUnfrozen(ctx context.Context, id int64) error {
	m, err := s.lock(ctx, "settle")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return s.db.Transaction(func(tx *gorm.DB) error {
		var o Order
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(&o, id).Error; err != nil {
			return err
		}
		if o.Frozen {
			return nil
		}
		return tx.Model(&Order{}).Where("id = ?", id).Update("amount", 0).Error // want `DB.Update \(UPDATE orders\) writes to SQL database without a fencing token`
	})
}

// StartJobs claims each queued job in an explicit transaction: a job
// another holder started is skipped.
func (s *Service) StartJobs(ctx context.Context, ids []int64) error {
	m, err := s.lock(ctx, "jobs")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	tx, err := s.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, id := range ids {
		var state string
		if err := tx.QueryRowContext(ctx, `SELECT state FROM jobs WHERE id = $1 FOR UPDATE`, id).Scan(&state); err != nil {
			return err
		}
		if state != "queued" {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE workers SET busy = busy + 1 WHERE pool = 'default'`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE jobs SET state = 'running' WHERE id = $1`, id); err != nil {
			return err
		}
		s.sql.ExecContext(ctx, `UPDATE jobs SET note = 'started' WHERE id = $1`, id) // want `DB.ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token`
	}
	return tx.Commit()
}

// FinishJob claims with sqlx's Get on a transaction from Beginx.
func (s *Service) FinishJob(ctx context.Context, id int64, result string) error {
	m, err := s.lock(ctx, "jobs")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	tx, err := s.sqx.Beginx()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var job struct{ State string }
	if err := tx.GetContext(ctx, &job, `SELECT state FROM jobs WHERE id = $1 FOR NO KEY UPDATE`, id); err != nil {
		return err
	}
	if job.State != "running" {
		return errors.New("job " + job.State)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE jobs SET state = 'done', result = $2 WHERE id = $1`, id, result); err != nil {
		return err
	}
	return tx.Commit()
}
