// Package crosspkg calls helpers in another package while holding a lock.
package crosspkg

import (
	"context"
	"database/sql"

	"github.com/go-redsync/redsync/v4"
	"helpers"
)

func publish(ctx context.Context, db *sql.DB, m *redsync.Mutex, fence int64) error {
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	if err := helpers.SaveReport(ctx, db, "a"); err != nil { // want `helpers.SaveReport \(DB.ExecContext \(INSERT reports\) at helpers.go:14\) writes to SQL database without a fencing token while the redsync lock taken by Mutex.Lock \(line 13\) is held`
		return err
	}
	if err := helpers.SaveVia(ctx, db, "b"); err != nil { // want `helpers.SaveVia \(DB.ExecContext \(INSERT reports\) at helpers.go:14, via helpers.SaveReport\)`
		return err
	}
	if err := helpers.SaveReportFenced(ctx, db, "c", fence); err != nil {
		return err
	}
	return helpers.SaveReportFenced(ctx, db, "d", 0) // want `helpers.SaveReportFenced .* without a fencing token`
}
