package gocronv1

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-co-op/gocron"
)

// Service keeps two schedulers: cluster jobs run on one replica at a time
// under the elector, and each replica refreshes its own cache on the
// local scheduler, which has no elector.
type Service struct {
	db      *sql.DB
	cluster *gocron.Scheduler
	local   *gocron.Scheduler
}

func NewService(db *sql.DB, elector gocron.Elector) *Service {
	cluster := gocron.NewScheduler(time.UTC)
	cluster.WithDistributedElector(elector)
	return &Service{db: db, cluster: cluster, local: gocron.NewScheduler(time.UTC)}
}

// Register adds the jobs to the schedulers the service made.
func (s *Service) Register(ctx context.Context) error {
	if _, err := s.cluster.Every(10).Minutes().Do(func() {
		s.db.ExecContext(ctx, `UPDATE usage_totals SET total = (SELECT sum(bytes) FROM usage) WHERE id = 1`) // want `DB.ExecContext \(UPDATE usage_totals\) writes to SQL database without a fencing token while the gocron job's distributed lock \(line 28\) is held`
	}); err != nil {
		return err
	}
	// The replica's own cache: the local scheduler runs it on every
	// replica, under no lease (a hard negative).
	_, err := s.local.Every(1).Minute().Do(func() {
		s.db.ExecContext(ctx, `UPDATE replica_caches SET refreshed_at = now() WHERE replica = 'a'`)
	})
	return err
}
