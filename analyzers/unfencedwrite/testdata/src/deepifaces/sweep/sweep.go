// Package sweep is the cron job that advances escalations while it holds
// a redsync mutex. The write it makes is three interfaces away: the
// escalations service, the notifications service it calls, and the run
// store that one calls.
package sweep

import (
	"context"
	"time"

	"github.com/go-redsync/redsync/v4"

	"deepifaces/escalate"
)

type Sweeper struct {
	rs          *redsync.Redsync
	escalations escalate.Escalations
}

func New(rs *redsync.Redsync, e escalate.Escalations) *Sweeper {
	return &Sweeper{rs: rs, escalations: e}
}

func (s *Sweeper) Sweep(ctx context.Context) error {
	mu := s.rs.NewMutex("escalation-sweep", redsync.WithExpiry(time.Minute))
	if err := mu.LockContext(ctx); err != nil {
		return err
	}
	defer mu.UnlockContext(ctx)
	if n, err := s.escalations.Backlog(ctx, time.Now()); err != nil || n == 0 { // a read: quiet
		return err
	}
	return s.escalations.Advance(ctx, time.Now()) // want `Escalations.Advance \(DB.ExecContext \(UPDATE notification_runs\) at pgruns.go:\d+, via \*pgruns.Store.Reschedule, via Store.Reschedule, via \*notify.service.RunNow, via Notifications.RunNow, via \*escalate.service.Advance\) writes to SQL database without a fencing token while the redsync lock taken by Mutex.LockContext \(line 27\) is held`
}
