// Package etcdclaimrenew takes hand-rolled etcd locks (a key put with a
// lease only if missing) for its callers, in other packages, and keeps
// their leases alive in the background.
package etcdclaimrenew

import (
	"context"
	"errors"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/clientv3util"
	"go.uber.org/zap"
)

var errBusy = errors.New("the task is locked by another coordinator")

type Store struct {
	cli *clientv3.Client
	log *zap.Logger
}

func taskLockPath(id string) string { return "/task_locks/" + id }

// claim puts the task's lock key with lease only if it is missing.
func (s *Store) claim(ctx context.Context, id string, lease clientv3.LeaseID) error {
	resp, err := s.cli.Txn(ctx).
		If(clientv3util.KeyMissing(taskLockPath(id))).
		Then(clientv3.OpPut(taskLockPath(id), "locked", clientv3.WithLease(lease))).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errBusy
	}
	return nil
}

// LockTask keeps the lease alive for as long as the process lives, and
// drains the keep-alive responses only to log them: when they stop, the
// caller running the task never hears its lock is gone.
func (s *Store) LockTask(ctx context.Context, id string) error {
	lease, err := s.cli.Grant(ctx, 5)
	if err != nil {
		return err
	}
	ch, err := s.cli.KeepAlive(context.Background(), lease.ID) // want `nothing acts when the channel of Lease.KeepAlive closes, so the callers of Store.LockTask never hear that their lock's lease is gone and their work goes on; hand them a context cancelled when the channel closes and run the work on it`
	if err != nil {
		return err
	}
	if err := s.claim(ctx, id, lease.ID); err != nil {
		return err
	}
	go func() {
		for resp := range ch {
			s.log.Debug("etcd keep alive", zap.Int64("lease", int64(resp.ID)))
		}
	}()
	return nil
}

// LockTaskCtx hands the caller a context cancelled when the keep-alives
// stop: the work hears of it (a hard negative).
func (s *Store) LockTaskCtx(ctx context.Context, id string) (context.Context, error) {
	lease, err := s.cli.Grant(ctx, 5)
	if err != nil {
		return nil, err
	}
	ch, err := s.cli.KeepAlive(context.Background(), lease.ID)
	if err != nil {
		return nil, err
	}
	if err := s.claim(ctx, id, lease.ID); err != nil {
		return nil, err
	}
	work, cancel := context.WithCancel(ctx)
	go func() {
		defer cancel()
		for range ch {
		}
	}()
	return work, nil
}

// Register keeps a service registration alive: no lock, nothing to tell
// (a hard negative).
func (s *Store) Register(ctx context.Context, addr string) error {
	lease, err := s.cli.Grant(ctx, 5)
	if err != nil {
		return err
	}
	if _, err := s.cli.Put(ctx, "/services/"+addr, addr, clientv3.WithLease(lease.ID)); err != nil {
		return err
	}
	ch, err := s.cli.KeepAlive(context.Background(), lease.ID)
	if err != nil {
		return err
	}
	go func() {
		for resp := range ch {
			s.log.Debug("registration alive", zap.Int64("lease", int64(resp.ID)))
		}
	}()
	return nil
}
