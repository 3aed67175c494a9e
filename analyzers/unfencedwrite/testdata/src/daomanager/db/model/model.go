// Package model holds the rows of a DAO layer written with GORM v1.
package model

import "github.com/jinzhu/gorm"

// Interface is any row a DAO's AddModel or UpdateModel takes.
type Interface interface{ TableName() string }

// VolumeType is a storage class as the platform shows it.
type VolumeType struct {
	gorm.Model
	VolumeType  string
	Provisioner string
	Enable      bool
}

// TableName names VolumeType's table.
func (*VolumeType) TableName() string { return "volume_types" }

// ServiceEvent is an event of a component, failure events among them.
type ServiceEvent struct {
	ID          int64
	EventID     string
	FinalStatus string
}

// TableName names ServiceEvent's table.
func (*ServiceEvent) TableName() string { return "service_events" }

// ProbeResult is a probe's last result, kept in memory only.
type ProbeResult struct {
	Pod     string
	Healthy bool
}

// TableName names ProbeResult's (unused) table.
func (*ProbeResult) TableName() string { return "" }
