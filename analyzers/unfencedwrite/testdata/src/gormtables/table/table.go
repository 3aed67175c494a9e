// Package table holds the rows the store writes, each naming its table
// (globalindexer's internal/database/dialer/postgres/table).
package table

import "time"

// DailyCount is a day's count, keyed by the day.
type DailyCount struct {
	Day   time.Time `gorm:"column:day"`
	Count int64     `gorm:"column:count"`
}

func (*DailyCount) TableName() string { return "ledger.day_counts" }

// EpochTotal is an epoch's total over a period, keyed by both.
type EpochTotal struct {
	Epoch  int32
	Period int16
	Total  int64
}

func (*EpochTotal) TableName() string { return "ledger.totals_by_epoch" }

// Payout is one payment; its key is a serial ID.
type Payout struct {
	ID     int64
	Epoch  int32
	Amount int64
}

func (*Payout) TableName() string {
	return "ledger.payouts"
}
