// Package db hands out the process's one Manager, made by CreateManager
// at start-up: callers reach the DAOs as db.GetManager().EventDao().
package db

import (
	"daomanager/db/dao"
	"daomanager/db/mysql"
)

// Manager is the DAO factory.
type Manager interface {
	VolumeTypeDao() dao.VolumeTypeDao
	ServiceEventDao() dao.EventDao
	ProbeDao() dao.ProbeDao
}

var defaultManager Manager

// CreateManager makes the process's Manager.
func CreateManager(dsn string) (err error) {
	defaultManager, err = mysql.CreateManager(dsn)
	return err
}

// GetManager returns the process's Manager.
func GetManager() Manager { return defaultManager }
