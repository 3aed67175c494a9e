package gormstore

import (
	"context"
	"time"

	"gorm.io/gorm"
)

// Session is soft-deleted: its gorm.DeletedAt field makes GORM send a
// Delete as UPDATE sessions SET deleted_at = <now> WHERE ... AND deleted_at
// IS NULL.
type Session struct {
	ID        int64
	ExpiresAt time.Time
	Fence     int64
	DeletedAt gorm.DeletedAt
}

// dateTime is a time defined as its own type, as strfmt.DateTime is.
type dateTime time.Time

// Token names its stamp column.
type Token struct {
	ID      int64
	Revoked gorm.DeletedAt `gorm:"column:revoked_at;index"`
}

func (s *Store) ExpireSessions(ctx context.Context, id, tok int64, now time.Time) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	// A soft delete by age: stamping what has expired twice stamps it once.
	if err := s.db.WithContext(ctx).Where("expires_at < ?", now).Delete(&Session{}).Error; err != nil {
		return err
	}
	if err := s.db.Model(&Session{}).Where("expires_at < ?", now.Add(-time.Hour)).Delete(&Session{}).Error; err != nil {
		return err
	}
	// By key, it stamps the row whatever a newer holder did with it.
	if err := s.db.Delete(&Session{}, id).Error; err != nil { // want `DB.Delete \(UPDATE sessions\) writes to SQL database without a fencing token`
		return err
	}
	// Unscoped deletes the rows: a real DELETE by age is idempotent too...
	if err := s.db.Unscoped().Where("expires_at < ?", now).Delete(&Session{}).Error; err != nil {
		return err
	}
	// ...and by key it is not.
	if err := s.db.Unscoped().Delete(&Session{}, "id = ?", id).Error; err != nil { // want `DB.Delete \(DELETE sessions\) writes to SQL database without a fencing token`
		return err
	}
	// A fenced soft delete.
	return checked(s.db.Where("id = ? AND fence < ?", id, tok).Delete(&Session{}))
}

// PurgeSessions takes its cutoff in a type defined as time.Time, as
// go-openapi's strfmt.DateTime is: still a delete by age.
func (s *Store) PurgeSessions(ctx context.Context, id int64, olderThan dateTime) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	return s.db.Unscoped().Where("deleted_at < ?", olderThan).Delete(&Session{}).Error
}

func (s *Store) RevokeTokens(ctx context.Context, id int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	if err := s.db.Where("issued_at < now() - interval '1 day'").Delete(&Token{}).Error; err != nil {
		return err
	}
	return s.db.Where("user_id = ?", id).Delete(&Token{}).Error // want `DB.Delete \(UPDATE tokens\) writes to SQL database without a fencing token`
}
