// Package local runs a job on every replica, on a gocron v1 scheduler with
// no locker or elector: nothing is leased (hard negatives).
package local

import (
	"database/sql"
	"time"

	"github.com/go-co-op/gocron"
)

// Start schedules the replica's own cache refresh.
func Start(db *sql.DB) (*gocron.Scheduler, error) {
	s := gocron.NewScheduler(time.UTC)
	if _, err := s.Every(5).Minutes().Do(func() {
		db.Exec(`UPDATE replica_heartbeats SET seen_at = now() WHERE host = 'a'`)
	}); err != nil {
		return nil, err
	}
	s.StartAsync()
	return s, nil
}
