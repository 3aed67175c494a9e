// Package notify runs notifications; it writes only through runs.Store.
package notify

import (
	"context"
	"time"

	"deepifaces/runs"
)

// Notifications delivers the pages of an escalation step.
type Notifications interface {
	RunNow(ctx context.Context, ids []string, now time.Time) error
	Pending(ctx context.Context, now time.Time) (int, error)
}

type service struct{ runs runs.Store }

func New(r runs.Store) Notifications { return &service{runs: r} }

func (s *service) RunNow(ctx context.Context, ids []string, now time.Time) error {
	for _, id := range ids {
		if err := s.runs.Reschedule(ctx, id, now.Add(time.Minute)); err != nil {
			return err
		}
	}
	return nil
}

// Pending only reads.
func (s *service) Pending(ctx context.Context, now time.Time) (int, error) {
	ids, err := s.runs.Due(ctx, now)
	return len(ids), err
}
