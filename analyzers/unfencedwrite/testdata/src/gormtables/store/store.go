// Package store is reduced from globalindexer's snapshot jobs: each runs
// under a redsync lock and writes rows whose models, and the names of
// their tables, live in package table. An INSERT that gives the whole
// primary key of its table (the day, the epoch) and heeds its error is a
// create-if-absent: a stale holder's second one fails on the key, whether
// the table is named by the model or by Table(...) with the model's
// TableName. A key of the current time, a serial key or a dropped error
// lets a stale holder add a second row.
package store

import (
	"context"
	"embed"
	"time"

	"github.com/go-redsync/redsync/v4"
	"gorm.io/gorm"

	"gormtables/table"
)

//go:embed migration/*.sql
var Migrations embed.FS

type Store struct {
	db *gorm.DB
	rs *redsync.Redsync
}

// totalRow is an epoch's total as the job computes it; Table(...) names
// the table it goes to.
type totalRow struct {
	Epoch  int32
	Period int16
	Total  int64
}

func (s *Store) locked(ctx context.Context, name string, fn func() error) error {
	m := s.rs.NewMutex("cron:" + name)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return fn()
}

// SaveDailyCount inserts today's count; a second one for the day fails.
func (s *Store) SaveDailyCount(ctx context.Context, n int64) error {
	return s.locked(ctx, "daily", func() error {
		y, m, d := time.Now().UTC().Date()
		day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		return s.db.WithContext(ctx).Create(&table.DailyCount{Day: day, Count: n}).Error
	})
}

// SaveTotal inserts the epoch's total into the table EpochTotal names.
func (s *Store) SaveTotal(ctx context.Context, row *totalRow) error {
	return s.locked(ctx, "totals", func() error {
		if err := s.db.WithContext(ctx).
			Table((*table.EpochTotal).TableName(nil)).
			Create(row).
			Error; err != nil {
			return err
		}
		return nil
	})
}

// SaveSample keys the row by the current time: every holder's is new.
func (s *Store) SaveSample(ctx context.Context, n int64) error {
	return s.locked(ctx, "samples", func() error {
		return s.db.WithContext(ctx).Create(&table.DailyCount{Day: time.Now(), Count: n}).Error // want `DB.Create \(INSERT ledger.day_counts\) writes to SQL database without a fencing token`
	})
}

// SaveDailyCountQuietly drops the INSERT's error: the stale holder's
// failure goes unheard, and it carries on as if it had counted.
func (s *Store) SaveDailyCountQuietly(ctx context.Context, day time.Time, n int64) error {
	return s.locked(ctx, "daily", func() error {
		s.db.WithContext(ctx).Create(&table.DailyCount{Day: day, Count: n}) // want `DB.Create \(INSERT ledger.day_counts\) writes to SQL database without a fencing token`
		return nil
	})
}

// Pay inserts a payout: a stale holder's repeat is a second payment.
func (s *Store) Pay(ctx context.Context, p *table.Payout) error {
	return s.locked(ctx, "payouts", func() error {
		return s.db.WithContext(ctx).Create(p).Error // want `DB.Create \(INSERT ledger.payouts\) writes to SQL database without a fencing token`
	})
}
