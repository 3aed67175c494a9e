package gormstore

import (
	"context"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// FinishG marks the job done with GORM's generics API (gorm.G[T]):
// unfenced, then fenced with its count read.
func (w *Worker) FinishG(ctx context.Context, conn *gorm.DB, job, tok int64) error {
	if err := w.acquire(ctx, conn, job); err != nil {
		return err
	}
	if _, err := gorm.G[Job](w.db).Where("id = ?", job).Update(ctx, "state", "done"); err != nil { // want unfencedwrite:"ChainInterface.Update \\(UPDATE jobs\\) writes to SQL database without a fencing token"
		return err
	}
	n, err := gorm.G[Job](w.db).Where("id = ? AND fence <= ?", job, tok).Updates(ctx, Job{State: "done", Fence: tok})
	if err != nil {
		return err
	}
	if n == 0 {
		return errStale
	}
	if err := gorm.G[Event](w.db, clause.OnConflict{DoNothing: true}).Create(ctx, &Event{JobID: job, Step: 1}); err != nil {
		return err
	}
	if n, err := gorm.G[Job](w.db).Where("id = ?", job).Where(gorm.Expr("fence < ?", tok)).Delete(ctx); err != nil || n == 0 {
		return errStale
	}
	_, err = gorm.G[Job](w.db).Where("id = ?", job).Delete(ctx) // want unfencedwrite:"ChainInterface.Delete \\(DELETE jobs\\) writes to SQL database without a fencing token"
	return err
}

// Upsert writes the row over the stored one only where the stored fence
// is older (OnConflict's Where): a fenced upsert; its twin guards on the
// state instead.
func (w *Worker) Upsert(ctx context.Context, conn *gorm.DB, j *Job, tok int64) error {
	if err := w.acquire(ctx, conn, j.ID); err != nil {
		return err
	}
	if err := must(w.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "id"}},
		Where:     clause.Where{Exprs: []clause.Expression{clause.Lt{Column: clause.Column{Table: "jobs", Name: "fence"}, Value: tok}}},
		DoUpdates: clause.AssignmentColumns([]string{"state", "fence"}),
	}).Create(j)); err != nil {
		return err
	}
	byState := clause.OnConflict{
		Columns:   []clause.Column{{Name: "id"}},
		Where:     clause.Where{Exprs: []clause.Expression{clause.Expr{SQL: "jobs.state <> ?", Vars: []any{"done"}}}},
		DoUpdates: clause.AssignmentColumns([]string{"state", "fence"}),
	}
	return must(w.db.Clauses(byState).Create(j)) // want unfencedwrite:"DB.Create \\(INSERT jobs\\) writes to SQL database without a fencing token"
}
