package gormstore

import (
	"context"
	"errors"

	"gorm.io/gorm"
)

// Credit is a job's remaining budget, in table credits.
type Credit struct {
	JobID int64 `gorm:"primaryKey"`
	Left  int64
	Held  bool
}

var errNoCredit = errors.New("no credit left")

// Spend takes n from the job's credit where that much is left, after the
// same check on the row it read: the store repeats the bound, so a stale
// holder takes only n, and never below zero.
func (w *Worker) Spend(ctx context.Context, conn *gorm.DB, job, n int64) error {
	if err := w.acquire(ctx, conn, job); err != nil {
		return err
	}
	var c Credit
	if err := w.db.Where("job_id = ?", job).First(&c).Error; err != nil {
		return err
	}
	if c.Left < n {
		return errNoCredit
	}
	return w.db.Model(&Credit{}).Where("job_id = ?", job).Where("left >= ?", n).UpdateColumn("left", gorm.Expr("left - ?", n)).Error
}

// SpendUnheld also tests the row's hold flag, which the bound does not
// repeat: a stale holder spends a credit held since.
func (w *Worker) SpendUnheld(ctx context.Context, conn *gorm.DB, job, n int64) error {
	if err := w.acquire(ctx, conn, job); err != nil {
		return err
	}
	var c Credit
	if err := w.db.Where("job_id = ?", job).First(&c).Error; err != nil {
		return err
	}
	if c.Held || c.Left < n {
		return errNoCredit
	}
	return w.db.Model(&Credit{}).Where("job_id = ?", job).Where("left >= ?", n).UpdateColumn("left", gorm.Expr("left - ?", n)).Error // want unfencedwrite:"DB.UpdateColumn \\(UPDATE credits\\) writes to SQL database without a fencing token"
}
