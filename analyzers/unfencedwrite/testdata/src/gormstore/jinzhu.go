package gormstore

import (
	"context"
	"errors"
	"time"

	gormv1 "github.com/jinzhu/gorm"
)

// GORM v1 (github.com/jinzhu/gorm), as older services still write their
// DAOs, is read like gorm.io/gorm. Its differences: Update takes attrs
// ...interface{} (a column and its value, or one map), Save falls back to
// an insert even after Select, and any DeletedAt field (gormv1.Model's)
// makes Delete a soft delete.

// VolumeType embeds gormv1.Model, whose DeletedAt makes it soft-deleted.
type VolumeType struct {
	gormv1.Model
	Name        string
	Provisioner string
	Fence       int64
}

// ServiceEvent has no DeletedAt: Delete removes its rows.
type ServiceEvent struct {
	ID        int64
	ServiceID string
	Message   string
	CreatedAt time.Time
}

// VolumeTypeDao syncs volume types under the cluster's advisory lock.
type VolumeTypeDao struct {
	DB *gormv1.DB
}

var errTaken = errors.New("cluster is synced by another worker")

func (d *VolumeTypeDao) lock(ctx context.Context, cluster int64) error {
	var ok bool
	if err := d.DB.Raw("SELECT pg_try_advisory_lock(?)", cluster).Scan(&ok).Error; err != nil {
		return err
	}
	if !ok {
		return errTaken
	}
	return nil
}

// checkedV1 turns a fenced v1 write's result into errStale when it
// changed nothing.
func checkedV1(res *gormv1.DB) error {
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errStale
	}
	return nil
}

func (d *VolumeTypeDao) Sync(ctx context.Context, vt *VolumeType, tok int64) error {
	if err := d.lock(ctx, 1); err != nil {
		return err
	}
	if err := d.DB.Save(vt).Error; err != nil { // want `DB.Save \(UPDATE volume_types\) writes to SQL database without a fencing token`
		return err
	}
	// v1's Update takes a column and its value...
	if err := d.DB.Model(&VolumeType{}).Where("name = ?", vt.Name).Update("provisioner", vt.Provisioner).Error; err != nil { // want `DB.Update \(UPDATE volume_types\) writes to SQL database without a fencing token`
		return err
	}
	// ...or one map, like Updates.
	if err := d.DB.Table("volume_types").Where("name = ?", vt.Name).UpdateColumn(map[string]interface{}{"provisioner": vt.Provisioner}).Error; err != nil { // want `DB.UpdateColumn \(UPDATE volume_types\) writes to SQL database without a fencing token`
		return err
	}
	// Fenced twins: the stored fence is compared and RowsAffected read.
	if err := checkedV1(d.DB.Model(&VolumeType{}).Where("name = ? AND fence < ?", vt.Name, tok).Update("provisioner", vt.Provisioner)); err != nil {
		return err
	}
	if err := checkedV1(d.DB.Model(vt).Where("fence <= ?", tok).Updates(map[string]interface{}{"provisioner": vt.Provisioner, "fence": tok})); err != nil {
		return err
	}
	// v1's Save inserts when its UPDATE matches no row, Select or not.
	return checkedV1(d.DB.Select("*").Where("fence < ?", tok).Save(vt)) // want `DB.Save \(UPDATE volume_types\) \(Save inserts the row over the newer one when its fenced UPDATE matches none \(GORM v1, even after Select\); use Updates\) writes to SQL database without a fencing token`
}

func (d *VolumeTypeDao) Remove(ctx context.Context, name string, tok int64) error {
	if err := d.lock(ctx, 1); err != nil {
		return err
	}
	// gormv1.Model's DeletedAt: Delete stamps the row.
	if err := d.DB.Delete(&VolumeType{}, "name = ?", name).Error; err != nil { // want `DB.Delete \(UPDATE volume_types\) writes to SQL database without a fencing token`
		return err
	}
	if err := d.DB.Unscoped().Where("name = ?", name).Delete(&VolumeType{}).Error; err != nil { // want `DB.Delete \(DELETE volume_types\) writes to SQL database without a fencing token`
		return err
	}
	return checkedV1(d.DB.Where("name = ? AND fence < ?", name, tok).Delete(&VolumeType{}))
}

func (d *VolumeTypeDao) Events(ctx context.Context, ev *ServiceEvent, tok int64, cutoff time.Time) error {
	if err := d.lock(ctx, 1); err != nil {
		return err
	}
	if err := d.DB.Create(ev).Error; err != nil { // want `DB.Create \(INSERT service_events\) writes to SQL database without a fencing token`
		return err
	}
	// A delete by age: what expired stays expired.
	if err := d.DB.Where("created_at < ?", cutoff).Delete(&ServiceEvent{}).Error; err != nil {
		return err
	}
	if err := d.DB.Exec("UPDATE service_events SET message = ? WHERE id = ?", ev.Message, ev.ID).Error; err != nil { // want `DB.Exec \(UPDATE service_events\) writes to SQL database without a fencing token`
		return err
	}
	return checkedV1(d.DB.Exec("UPDATE service_events SET message = ?, fence = ? WHERE id = ? AND fence < ?", ev.Message, tok, ev.ID, tok))
}
