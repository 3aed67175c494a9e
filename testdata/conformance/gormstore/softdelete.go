package gormstore

import (
	"context"
	"time"

	"gorm.io/gorm"
)

// Attempt is soft-deleted: its gorm.DeletedAt makes GORM send Delete as an
// UPDATE stamping deleted_at on rows not stamped yet, unless Unscoped.
type Attempt struct {
	ID         int64 `gorm:"primaryKey"`
	JobID      int64
	FinishedAt time.Time
	Fence      int64
	DeletedAt  gorm.DeletedAt `gorm:"index"`
}

// Prune retires the job's old attempts.
func (w *Worker) Prune(ctx context.Context, conn *gorm.DB, job, tok int64, keep time.Duration) error {
	if err := w.acquire(ctx, conn, job); err != nil {
		return err
	}
	// A soft delete by age: stamping what has finished twice stamps it once.
	if err := w.db.WithContext(ctx).Where("finished_at < ?", time.Now().Add(-keep)).Delete(&Attempt{}).Error; err != nil {
		return err
	}
	if err := w.db.Unscoped().Where("finished_at < ?", time.Now().Add(-30*keep)).Delete(&Attempt{}).Error; err != nil {
		return err
	}
	// By key, it stamps what a newer holder may have made anew.
	if err := w.db.Where("job_id = ?", job).Delete(&Attempt{}).Error; err != nil { // want unfencedwrite:"DB.Delete \\(UPDATE attempts\\) writes to SQL database without a fencing token"
		return err
	}
	return must(w.db.Where("job_id = ? AND fence < ?", job, tok).Delete(&Attempt{}))
}
