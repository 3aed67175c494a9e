package gormstore

import (
	"context"
	"errors"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// GORM's generics API (gorm.G[T]) is read as the same SQL: the table is
// the type argument's, the count is the finisher's first result.

// lockG takes the job's session lock through the generics API's Raw.
func lockG(ctx context.Context, db *gorm.DB, key int64) error {
	var ok bool
	if err := gorm.G[bool](db).Raw("SELECT pg_try_advisory_lock(?)", key).Scan(ctx, &ok); err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	return nil
}

func finishG(ctx context.Context, db *gorm.DB, id, tok int64) error {
	if err := lockG(ctx, db, id); err != nil {
		return err
	}
	if _, err := gorm.G[Doc](db).Where("id = ?", id).Update(ctx, "body", "done"); err != nil { // want `ChainInterface.Update \(UPDATE docs\) writes to SQL database without a fencing token`
		return err
	}
	n, err := gorm.G[Doc](db).Where("id = ? AND fence < ?", id, tok).Updates(ctx, Doc{Body: "done", Fence: tok})
	if err != nil {
		return err
	}
	if n == 0 {
		return errStale
	}
	if _, err := gorm.G[Doc](db).Where("id = ? AND fence < ?", id, tok).Update(ctx, "body", "x"); err != nil { // want `ChainInterface.Update \(UPDATE docs\) is fenced but its rows-affected count is never read`
		return err
	}
	if _, err := gorm.G[Doc](db).Where("fence < ?", tok).Or("id = ?", id).Delete(ctx); err != nil { // want `ChainInterface.Delete \(DELETE docs\) writes to SQL database without a fencing token`
		return err
	}
	if n, err := gorm.G[Doc](db).Where("id = ?", id).Where("fence <= ?", tok).Delete(ctx); err != nil || n == 0 {
		return errStale
	}
	if n, err := gorm.G[Doc](db).Where("id = ?", id).Where(gorm.Expr("fence < ?", tok)).Delete(ctx); err != nil || n == 0 {
		return errStale
	}
	if n, err := gorm.G[Doc](db).Where(clause.Eq{Column: "id", Value: id}).Where(clause.Lt{Column: "fence", Value: tok}).Delete(ctx); err != nil || n == 0 {
		return errStale
	}
	if n, err := gorm.G[Doc](db).Where(clause.Eq{Column: "id", Value: id}).Delete(ctx); err != nil || n == 0 { // want `ChainInterface.Delete \(DELETE docs\) writes to SQL database without a fencing token`
		return errStale
	}
	return nil
}

func createG(ctx context.Context, db *gorm.DB, l *JobLease) error {
	if err := lockG(ctx, db, 1); err != nil {
		return err
	}
	if err := gorm.G[JobLease](db).Create(ctx, l); err != nil { // want `CreateInterface.Create \(INSERT job_leases\) writes to SQL database without a fencing token`
		return err
	}
	return gorm.G[JobLease](db, clause.OnConflict{DoNothing: true}).Create(ctx, l)
}

// chainG gets its chain from a caller: conditions may have been added out
// of sight.
func chainG(ctx context.Context, db *gorm.DB, q gorm.ChainInterface[Doc]) error {
	if err := lockG(ctx, db, 1); err != nil {
		return err
	}
	_, err := q.Update(ctx, "body", "x") // want `ChainInterface.Update \(UPDATE docs\) writes to SQL database while .* could not see its WHERE clause`
	return err
}
