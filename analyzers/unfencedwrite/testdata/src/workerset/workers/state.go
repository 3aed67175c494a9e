package workers

import "context"

// A StateStore keeps the leader's progress. The SQL and Redis stores
// implement it; a deployment configures one.
type StateStore interface {
	SaveProgress(ctx context.Context, step string) error
}
