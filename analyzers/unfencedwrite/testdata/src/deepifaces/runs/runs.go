// Package runs declares the application's own store of notification runs:
// the services write through it and never see the Postgres
// implementation, which main wires in.
package runs

import (
	"context"
	"time"
)

// Store keeps the notification runs of an escalation.
type Store interface {
	Reschedule(ctx context.Context, id string, at time.Time) error
	Due(ctx context.Context, now time.Time) ([]string, error)
}
