// Package gormstore is a worker that owns a job through a PostgreSQL
// advisory lock and records its progress with the real GORM: unfenced
// writes, fenced twins that read RowsAffected, Save's upsert fallback, and
// insert-if-absent with OnConflict DoNothing.
package gormstore

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

var errStale = errors.New("stale fence: a newer holder has written")

// Job is one job's row, in table jobs.
type Job struct {
	ID        int64 `gorm:"primaryKey"`
	State     string
	Fence     int64
	UpdatedAt time.Time
}

// Event is appended once per step; its key makes a replay a no-op.
type Event struct {
	JobID int64 `gorm:"primaryKey"`
	Step  int   `gorm:"primaryKey"`
	Note  string
}

func (Event) TableName() string { return "job_events" }

// Worker runs jobs while it holds each job's lock.
type Worker struct {
	db *gorm.DB
}

// acquire takes the job's advisory lock on the worker's connection.
func (w *Worker) acquire(ctx context.Context, conn *gorm.DB, job int64) error {
	var ok bool
	if err := conn.WithContext(ctx).Raw("SELECT pg_try_advisory_lock(?)", job).Scan(&ok).Error; err != nil {
		return err
	}
	if !ok {
		return errors.New("job is taken")
	}
	return nil
}

// must turns a fenced write's result into errStale when it changed nothing.
func must(res *gorm.DB) error {
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errStale
	}
	return nil
}

// Finish marks the job done, first without a fence, then fenced.
func (w *Worker) Finish(ctx context.Context, conn *gorm.DB, job, tok int64) error {
	if err := w.acquire(ctx, conn, job); err != nil {
		return err
	}
	if err := w.db.WithContext(ctx).Model(&Job{}).Where("id = ?", job).Update("state", "done").Error; err != nil { // want unfencedwrite:"DB.Update \\(UPDATE jobs\\) writes to SQL database without a fencing token"
		return err
	}
	if err := must(w.db.WithContext(ctx).Model(&Job{}).Where("id = ? AND fence <= ?", job, tok).
		Updates(map[string]any{"state": "done", "fence": tok})); err != nil {
		return err
	}
	return must(w.db.Exec("UPDATE jobs SET state = 'done', fence = ? WHERE id = ? AND fence < ?", tok, job, tok))
}

// Store saves the whole row.
func (w *Worker) Store(ctx context.Context, conn *gorm.DB, j *Job, tok int64) error {
	if err := w.acquire(ctx, conn, j.ID); err != nil {
		return err
	}
	if err := must(w.db.Where("fence < ?", tok).Save(j)); err != nil { // want unfencedwrite:"DB.Save \\(UPDATE jobs\\) \\(Save inserts the row over the newer one"
		return err
	}
	return must(w.db.Select("*").Where("fence < ?", tok).Save(j))
}

// Record appends an event and drops the job.
func (w *Worker) Record(ctx context.Context, conn *gorm.DB, ev *Event, tok int64) error {
	if err := w.acquire(ctx, conn, ev.JobID); err != nil {
		return err
	}
	if err := w.db.Clauses(clause.OnConflict{DoNothing: true}).Create(ev).Error; err != nil {
		return err
	}
	if err := w.db.Clauses(clause.OnConflict{UpdateAll: true}).Create(ev).Error; err != nil { // want unfencedwrite:"DB.Create \\(INSERT job_events\\) writes to SQL database without a fencing token"
		return err
	}
	if err := w.db.Delete(&Job{}, ev.JobID).Error; err != nil { // want unfencedwrite:"DB.Delete \\(DELETE jobs\\) writes to SQL database without a fencing token"
		return err
	}
	return must(w.db.Where("fence <= ?", tok).Delete(&Job{ID: ev.JobID}))
}
