// Package mysql is the MySQL implementation of db.Manager.
package mysql

import (
	"github.com/jinzhu/gorm"

	"daomanager/db/dao"
	mysqldao "daomanager/db/mysql/dao"
)

// Manager hands out the DAOs over one connection pool.
type Manager struct {
	db     *gorm.DB
	probes *mysqldao.ProbeDaoImpl
}

// CreateManager opens the database.
func CreateManager(dsn string) (*Manager, error) {
	db, err := gorm.Open("mysql", dsn)
	if err != nil {
		return nil, err
	}
	return &Manager{db: db, probes: &mysqldao.ProbeDaoImpl{}}, nil
}

// VolumeTypeDao returns the volume-type table's DAO.
func (m *Manager) VolumeTypeDao() dao.VolumeTypeDao { return &mysqldao.VolumeTypeDaoImpl{DB: m.db} }

// ServiceEventDao returns the event table's DAO.
func (m *Manager) ServiceEventDao() dao.EventDao { return &mysqldao.EventDaoImpl{DB: m.db} }

// ProbeDao returns the in-memory probe results.
func (m *Manager) ProbeDao() dao.ProbeDao { return m.probes }
