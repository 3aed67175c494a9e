package weaktokens

import (
	"context"

	"github.com/bwmarrin/snowflake"
	"github.com/sony/sonyflake"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Stamped writes under an etcd lock fenced with snowflake IDs. They grow
// with each process's clock, not with the lease: a paused holder's ID,
// drawn before the pause, can still be larger than the next holder's when
// the two run on different hosts.
type Stamped struct {
	reports *Reports
	flake   *sonyflake.Sonyflake
	node    *snowflake.Node
}

// Sonyflake fences with Sonyflake's next ID.
func (s *Stamped) Sonyflake(ctx context.Context, m *concurrency.Mutex) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	id, err := s.flake.NextID()
	if err != nil {
		return err
	}
	return s.reports.write(ctx, "sonyflake", int64(id)) // want weaktoken:"is not a fencing token: a snowflake ID is a clock reading"
}

// Snowflake fences with a Twitter-style snowflake ID.
func (s *Stamped) Snowflake(ctx context.Context, m *concurrency.Mutex) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return s.reports.write(ctx, "snowflake", s.node.Generate().Int64()) // want weaktoken:"is not a fencing token: a snowflake ID is a clock reading"
}

// Revision fences with the etcd revision at which the lock was taken: the
// real token, next to the snowflake ID that only names the report.
func (s *Stamped) Revision(ctx context.Context, m *concurrency.Mutex) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	name := s.node.Generate().String()
	return s.reports.write(ctx, name, m.Header().Revision)
}
