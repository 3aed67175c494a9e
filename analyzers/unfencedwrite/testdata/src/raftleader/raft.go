// Package raftleader applies writes through the Raft log.
package raftleader

import (
	"time"

	"github.com/hashicorp/raft"
)

// Lock is a lease from the team's lock service, taken before the raft work.
type Lock struct{}

// Acquire takes the lease.
//
//fencelint:acquire
func (l *Lock) Acquire() error { return nil }

// apply goes through the log: it commits only under the current leader.
func apply(r *raft.Raft, l *Lock, cmd []byte) error {
	if err := l.Acquire(); err != nil {
		return err
	}
	return r.Apply(cmd, 5*time.Second).Error()
}
