// Package jinzhugorm is a DAO written with GORM v1 (github.com/jinzhu/gorm),
// the import path GORM had before gorm.io: a worker that syncs storage
// classes into the database while it holds the cluster's PostgreSQL
// advisory lock.
package jinzhugorm

import (
	"context"
	"errors"
	"time"

	"github.com/jinzhu/gorm"
)

var (
	errBusy  = errors.New("another worker syncs this cluster")
	errStale = errors.New("stale fence: a newer holder has written")
)

// VolumeType is one storage class's row; gorm.Model's DeletedAt makes
// Delete stamp it.
type VolumeType struct {
	gorm.Model
	Name        string
	Provisioner string
	Fence       int64
}

// SyncRecord is appended per sync.
type SyncRecord struct {
	ID       uint64 `gorm:"primary_key"`
	Cluster  string
	SyncedAt time.Time
}

func (SyncRecord) TableName() string { return "volume_sync_records" }

// Syncer writes volume types for one cluster.
type Syncer struct {
	db *gorm.DB
}

func (s *Syncer) lock(ctx context.Context, cluster int64) error {
	var ok bool
	if err := s.db.Raw("SELECT pg_try_advisory_lock(?)", cluster).Scan(&ok).Error; err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}

func fenced(res *gorm.DB) error {
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errStale
	}
	return nil
}

// Sync writes what the cluster reports, unfenced and fenced.
func (s *Syncer) Sync(ctx context.Context, cluster int64, vt *VolumeType, tok int64) error {
	if err := s.lock(ctx, cluster); err != nil {
		return err
	}
	if err := s.db.Save(vt).Error; err != nil { // want unfencedwrite:"DB.Save \\(UPDATE volume_types\\) writes to SQL database without a fencing token"
		return err
	}
	if err := s.db.Model(&VolumeType{}).Where("name = ?", vt.Name).Update("provisioner", vt.Provisioner).Error; err != nil { // want unfencedwrite:"DB.Update \\(UPDATE volume_types\\) writes to SQL database without a fencing token"
		return err
	}
	if err := s.db.Create(&SyncRecord{Cluster: vt.Name, SyncedAt: time.Now()}).Error; err != nil { // want unfencedwrite:"DB.Create \\(INSERT volume_sync_records\\) writes to SQL database without a fencing token"
		return err
	}
	if err := s.db.Delete(&VolumeType{}, "name = ?", vt.Name).Error; err != nil { // want unfencedwrite:"DB.Delete \\(UPDATE volume_types\\) writes to SQL database without a fencing token"
		return err
	}
	// Hard negatives: the stored fence is compared and RowsAffected read,
	// and old sync records are deleted by age.
	if err := fenced(s.db.Model(&VolumeType{}).Where("name = ? AND fence < ?", vt.Name, tok).Updates(map[string]interface{}{"provisioner": vt.Provisioner, "fence": tok})); err != nil {
		return err
	}
	if err := s.db.Where("synced_at < ?", time.Now().Add(-24*time.Hour)).Delete(&SyncRecord{}).Error; err != nil {
		return err
	}
	return fenced(s.db.Where("name = ? AND fence < ?", vt.Name, tok).Delete(&VolumeType{}))
}
