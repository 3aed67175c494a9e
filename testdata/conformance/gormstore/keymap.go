package gormstore

import (
	"context"

	"gorm.io/gorm"
)

// Step is a job's step, keyed through a helper's map of conditions.
type Step struct {
	JobID  int64  `gorm:"primaryKey"`
	Name   string `gorm:"primaryKey"`
	Output string
	Fence  int64
}

func stepKey(job int64, name string) map[string]any {
	return map[string]any{"job_id": job, "name": name}
}

// RecordStep stores a step's output.
func (w *Worker) RecordStep(ctx context.Context, conn *gorm.DB, s *Step, tok int64) error {
	if err := w.acquire(ctx, conn, s.JobID); err != nil {
		return err
	}
	if err := w.db.Model(&Step{}).Where(stepKey(s.JobID, s.Name)).Update("output", s.Output).Error; err != nil { // want unfencedwrite:"DB.Update \\(UPDATE steps\\) writes to SQL database without a fencing token"
		return err
	}
	return must(w.db.Model(&Step{}).Where(stepKey(s.JobID, s.Name)).Where("fence < ?", tok).
		Updates(map[string]any{"output": s.Output, "fence": tok}))
}
