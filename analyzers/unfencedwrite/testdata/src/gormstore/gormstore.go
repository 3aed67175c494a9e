// Package gormstore writes through GORM under PostgreSQL advisory locks:
// each write is read as the SQL GORM sends (the chain's Model, Table, Where,
// Not, Or, Clauses and the finisher), fenced when a Where compares the
// fence column with the token and RowsAffected is read.
package gormstore

import (
	"context"
	"errors"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

var errStale = errors.New("stale fence")

// Doc is stored in docs, GORM's default name for it.
type Doc struct {
	ID    int64
	Body  string
	Fence int64
}

// JobLease names its own table.
type JobLease struct {
	Job   string
	Owner string
	Fence int64
}

func (JobLease) TableName() string { return "job_leases" }

type Store struct{ db *gorm.DB }

// lock takes the job's session lock with GORM itself.
func (s *Store) lock(ctx context.Context, key int64) error {
	var ok bool
	if err := s.db.WithContext(ctx).Raw("SELECT pg_try_advisory_lock(?)", key).Scan(&ok).Error; err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	return nil
}

// checked turns a fenced write's result into an error: 0 rows means a newer
// holder has written.
func checked(res *gorm.DB) error {
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errStale
	}
	return nil
}

func (s *Store) Updates(ctx context.Context, id, tok int64, body string) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	if err := s.db.Model(&Doc{}).Where("id = ?", id).Updates(map[string]any{"body": body}).Error; err != nil { // want `DB.Updates \(UPDATE docs\) writes to SQL database without a fencing token`
		return err
	}
	res := s.db.Model(&Doc{}).Where("id = ? AND fence < ?", id, tok).Updates(map[string]any{"body": body, "fence": tok})
	if err := checked(res); err != nil {
		return err
	}
	res = s.db.WithContext(ctx).Model(&Doc{}).Where(map[string]any{"id": id}).Where("fence <= ?", tok).Update("body", body)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errStale
	}
	// The fence compares a constant, not the lease's token.
	if err := checked(s.db.Model(&Doc{}).Where("id = ? AND fence < ?", id, 7).Update("body", body)); err != nil { // want `DB.Update \(UPDATE docs\) writes to SQL database without a fencing token`
		return err
	}
	// A fence ORed with another condition rejects nothing.
	if err := checked(s.db.Model(&Doc{}).Where("fence < ?", tok).Or("id = ?", id).Update("body", body)); err != nil { // want `DB.Update \(UPDATE docs\) writes to SQL database without a fencing token`
		return err
	}
	s.db.Model(&Doc{}).Where("id = ?", id).UpdateColumn("body", body)                           // want `DB.UpdateColumn \(UPDATE docs\) writes to SQL database without a fencing token`
	s.db.Table("archive").Where("id = ?", id).UpdateColumns(Doc{Body: body})                    // want `DB.UpdateColumns \(UPDATE archive\) writes to SQL database without a fencing token`
	return s.db.Model(&Doc{}).Where("id = ? AND fence < ?", id, tok).Update("body", body).Error // want `DB.Update \(UPDATE docs\) is fenced but its rows-affected count is never read`
}

func (s *Store) Save(ctx context.Context, doc *Doc, tok int64) error {
	if err := s.lock(ctx, doc.ID); err != nil {
		return err
	}
	if err := s.db.Save(doc).Error; err != nil { // want `DB.Save \(UPDATE docs\) writes to SQL database without a fencing token`
		return err
	}
	// Save falls back to an upsert when the fenced UPDATE matches no row.
	if err := checked(s.db.Where("fence < ?", tok).Save(doc)); err != nil { // want `DB.Save \(UPDATE docs\) \(Save inserts the row over the newer one when its fenced UPDATE matches none; chain Select\("\*"\) before Save, or use Updates\) writes to SQL database without a fencing token`
		return err
	}
	return checked(s.db.Select("*").Where("fence < ?", tok).Save(doc))
}

func (s *Store) Create(ctx context.Context, l *JobLease) error {
	if err := s.lock(ctx, 1); err != nil {
		return err
	}
	if err := s.db.Create(l).Error; err != nil { // want `DB.Create \(INSERT job_leases\) writes to SQL database without a fencing token`
		return err
	}
	if err := s.db.Clauses(clause.OnConflict{UpdateAll: true}).Create(l).Error; err != nil { // want `DB.Create \(INSERT job_leases\) writes to SQL database without a fencing token`
		return err
	}
	// Insert-if-absent: a stale holder's copy changes nothing.
	return s.db.Clauses(clause.OnConflict{DoNothing: true}).Create(l).Error
}

// Upsert writes the lease row over the stored one only where the stored
// fence is older (OnConflict's Where): a fenced upsert. Its twins guard on
// something else, or put no guard at all.
func (s *Store) Upsert(ctx context.Context, l *JobLease, tok int64) error {
	if err := s.lock(ctx, 1); err != nil {
		return err
	}
	if err := checked(s.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "job"}},
		Where:     clause.Where{Exprs: []clause.Expression{clause.Expr{SQL: "job_leases.fence < ?", Vars: []interface{}{tok}}}},
		DoUpdates: clause.AssignmentColumns([]string{"owner", "fence"}),
	}).Create(l)); err != nil {
		return err
	}
	if err := checked(s.db.Clauses(clause.OnConflict{
		Where:     clause.Where{Exprs: []clause.Expression{clause.Lt{Column: "fence", Value: tok}}},
		UpdateAll: true,
	}).Create(l)); err != nil {
		return err
	}
	if err := checked(s.db.Clauses(clause.OnConflict{
		Where:     clause.Where{Exprs: []clause.Expression{gorm.Expr("fence <= ?", tok)}},
		UpdateAll: true,
	}).Create(l)); err != nil {
		return err
	}
	byOwner := clause.OnConflict{
		Where:     clause.Where{Exprs: []clause.Expression{clause.Eq{Column: "owner", Value: l.Owner}}},
		UpdateAll: true,
	}
	if err := checked(s.db.Clauses(byOwner).Create(l)); err != nil { // want `DB.Create \(INSERT job_leases\) writes to SQL database without a fencing token`
		return err
	}
	fenced := clause.OnConflict{
		Where:     clause.Where{Exprs: []clause.Expression{clause.Lte{Column: clause.Column{Name: "fence"}, Value: tok}}},
		UpdateAll: true,
	}
	return s.db.Clauses(fenced).Create(l).Error // want `DB.Create \(INSERT job_leases\) is fenced but its rows-affected count is never read`
}

func (s *Store) Delete(ctx context.Context, id, tok int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	if err := s.db.Delete(&Doc{}, "id = ?", id).Error; err != nil { // want `DB.Delete \(DELETE docs\) writes to SQL database without a fencing token`
		return err
	}
	if err := s.db.Delete(&Doc{}, id).Error; err != nil { // want `DB.Delete \(DELETE docs\) writes to SQL database without a fencing token`
		return err
	}
	if err := checked(s.db.Delete(&Doc{}, "id = ? AND fence < ?", id, tok)); err != nil {
		return err
	}
	if err := checked(s.db.Not("fence >= ?", tok).Delete(&Doc{}, id)); err != nil {
		return err
	}
	return checked(s.db.Where("fence <= ?", tok).Delete(&Doc{ID: id}))
}

func (s *Store) Exec(ctx context.Context, id, tok int64, body string) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	if err := s.db.Exec("UPDATE docs SET body = ? WHERE id = ?", body, id).Error; err != nil { // want `DB.Exec \(UPDATE docs\) writes to SQL database without a fencing token`
		return err
	}
	return checked(s.db.WithContext(ctx).Exec("UPDATE docs SET body = ?, fence = ? WHERE id = ? AND fence < ?", body, tok, id, tok))
}

// Scoped writes with conditions a scope adds out of sight.
func (s *Store) Scoped(ctx context.Context, id int64, body string, scope func(*gorm.DB) *gorm.DB) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	return checked(s.db.Model(&Doc{}).Scopes(scope).Update("body", body)) // want `DB.Update \(UPDATE docs\) writes to SQL database while the PostgreSQL lock taken by Store.lock \(line 189\) is held, and fencelint could not see its WHERE clause`
}

// InTransaction writes inside GORM's Transaction callback.
func (s *Store) InTransaction(ctx context.Context, id, tok int64, body string) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	return s.db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&Doc{}).Where("id = ?", id).Update("body", body).Error; err != nil { // want `DB.Update \(UPDATE docs\) writes to SQL database without a fencing token`
			return err
		}
		return checked(tx.Model(&Doc{}).Where("id = ? AND fence < ?", id, tok).Update("fence", tok))
	})
}

// Unlocked writes hold no lease: nothing to fence.
func (s *Store) Unlocked(id int64, body string) error {
	return s.db.Model(&Doc{}).Where("id = ?", id).Update("body", body).Error
}

// Branches extends a GORM chain in an if: read along each path.
func (s *Store) Branches(ctx context.Context, id, tok int64, body string, force bool) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	q := s.db.WithContext(ctx).Model(&Doc{}).Where("id = ? AND fence < ?", id, tok)
	if body != "" {
		q = q.Where("body <> ?", body)
	}
	if err := checked(q.Update("body", body)); err != nil {
		return err
	}
	u := s.db.WithContext(ctx).Model(&Doc{}).Where("id = ?", id)
	if !force {
		u = u.Where("fence <= ?", tok)
	}
	return checked(u.Update("body", body)) // want `DB.Update \(UPDATE docs\) writes to SQL database without a fencing token`
}
