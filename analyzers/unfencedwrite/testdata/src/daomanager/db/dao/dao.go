// Package dao declares the DAO interfaces: every table's embeds Dao.
package dao

import "daomanager/db/model"

// Dao is what every table's DAO does.
type Dao interface {
	AddModel(model.Interface) error
	UpdateModel(model.Interface) error
}

// VolumeTypeDao is the volume-type table's DAO.
type VolumeTypeDao interface {
	Dao
	CreateOrUpdateVolumeType(vt *model.VolumeType) (*model.VolumeType, error)
}

// EventDao is the event table's DAO.
type EventDao interface {
	Dao
	LatestFailurePodEvent(pod string) (*model.ServiceEvent, error)
}

// ProbeDao keeps probe results in the worker's memory.
type ProbeDao interface {
	Dao
	Healthy(pod string) bool
}
