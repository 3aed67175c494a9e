// Package cbconfig hands its leader work to the election package through
// that package's own config struct.
package cbconfig

import (
	"context"
	"database/sql"

	"cbconfig/election"

	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

type service struct {
	db *sql.DB
}

func (s *service) reconcile(ctx context.Context) {
	s.db.ExecContext(ctx, `UPDATE jobs SET owner = 'me' WHERE owner IS NULL`) // want `DB.ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token while the Kubernetes leader election lease \(OnStartedLeading\)`
}

func (s *service) report(ctx context.Context) {
	s.db.ExecContext(ctx, `INSERT INTO replicas (seen_at) VALUES (now())`)
}

func (s *service) run(ctx context.Context, lock resourcelock.Interface) {
	election.Run(ctx, election.Config{
		Lock: lock,
		OnStarted: func(ctx context.Context) {
			s.db.ExecContext(ctx, `DELETE FROM leases WHERE released`) // want `DB.ExecContext \(DELETE leases\) writes to SQL database without a fencing token while the Kubernetes leader election lease \(OnStartedLeading\)`
		},
		OnStopped: func() {},
		OnReport:  s.report,
	})
}

func (s *service) runMethod(ctx context.Context, lock resourcelock.Interface) {
	var cfg election.Config
	cfg.Lock = lock
	cfg.OnStarted = s.reconcile
	cfg.OnReport = s.report
	election.Run(ctx, cfg)
}

func (s *service) runNested(ctx context.Context, lock resourcelock.Interface) {
	election.RunOptions(ctx, lock, &election.Options{Name: "jobs", Hooks: election.Hooks{
		Lead: func(ctx context.Context) {
			s.db.ExecContext(ctx, `UPDATE jobs SET owner = NULL`) // want `DB.ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token while the Kubernetes leader election lease`
		},
	}})
}
