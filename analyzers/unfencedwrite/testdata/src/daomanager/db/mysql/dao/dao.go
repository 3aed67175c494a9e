// Package dao implements the DAO interfaces with GORM v1.
package dao

import (
	"fmt"
	"sync"

	"github.com/jinzhu/gorm"

	"daomanager/db/model"
)

// VolumeTypeDaoImpl writes the volume-type table.
type VolumeTypeDaoImpl struct{ DB *gorm.DB }

// AddModel inserts a volume type that does not exist yet.
func (d *VolumeTypeDaoImpl) AddModel(mo model.Interface) error {
	vt := mo.(*model.VolumeType)
	var old model.VolumeType
	if !d.DB.Where("volume_type=?", vt.VolumeType).Find(&old).RecordNotFound() {
		return fmt.Errorf("volume type %s exists", vt.VolumeType)
	}
	return d.DB.Create(vt).Error
}

// UpdateModel saves the whole row.
func (d *VolumeTypeDaoImpl) UpdateModel(mo model.Interface) error {
	return d.DB.Save(mo.(*model.VolumeType)).Error
}

// CreateOrUpdateVolumeType reads the row, then saves it whole.
func (d *VolumeTypeDaoImpl) CreateOrUpdateVolumeType(vt *model.VolumeType) (*model.VolumeType, error) {
	var old model.VolumeType
	if err := d.DB.Where("volume_type=?", vt.VolumeType).Find(&old).Error; err == gorm.ErrRecordNotFound {
		return vt, d.AddModel(vt)
	} else if err != nil {
		return nil, err
	}
	old.Provisioner = vt.Provisioner
	return &old, d.UpdateModel(&old)
}

// EventDaoImpl writes the event table.
type EventDaoImpl struct{ DB *gorm.DB }

// AddModel inserts an event.
func (d *EventDaoImpl) AddModel(mo model.Interface) error {
	return d.DB.Create(mo.(*model.ServiceEvent)).Error
}

// UpdateModel saves the whole event by its ID.
func (d *EventDaoImpl) UpdateModel(mo model.Interface) error {
	return d.DB.Save(mo.(*model.ServiceEvent)).Error
}

// LatestFailurePodEvent reads a pod's latest failure event.
func (d *EventDaoImpl) LatestFailurePodEvent(pod string) (*model.ServiceEvent, error) {
	var evt model.ServiceEvent
	err := d.DB.Where("target_id=? AND final_status=''", pod).First(&evt).Error
	return &evt, err
}

// ProbeDaoImpl keeps probe results in memory: it writes no store.
type ProbeDaoImpl struct {
	mu      sync.Mutex
	results map[string]bool
}

// AddModel records a probe result.
func (d *ProbeDaoImpl) AddModel(mo model.Interface) error { return d.UpdateModel(mo) }

// UpdateModel records a probe result.
func (d *ProbeDaoImpl) UpdateModel(mo model.Interface) error {
	r := mo.(*model.ProbeResult)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.results[r.Pod] = r.Healthy
	return nil
}

// Healthy reports a pod's last probe result.
func (d *ProbeDaoImpl) Healthy(pod string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.results[pod]
}
