// Package escalate advances escalation policies; it reaches the store only
// through notify.Notifications, which reaches it through runs.Store.
package escalate

import (
	"context"
	"time"

	"deepifaces/notify"
)

// Escalations moves due escalations to their next step.
type Escalations interface {
	Advance(ctx context.Context, now time.Time) error
	Backlog(ctx context.Context, now time.Time) (int, error)
}

type service struct{ notifications notify.Notifications }

func New(n notify.Notifications) Escalations { return &service{notifications: n} }

func (s *service) Advance(ctx context.Context, now time.Time) error {
	return s.notifications.RunNow(ctx, []string{"step-1"}, now)
}

// Backlog only reads, three interfaces down.
func (s *service) Backlog(ctx context.Context, now time.Time) (int, error) {
	return s.notifications.Pending(ctx, now)
}
