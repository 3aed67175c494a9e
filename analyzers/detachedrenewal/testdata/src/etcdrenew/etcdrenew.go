// Package etcdrenew runs jobs under etcd mutexes and keeps etcd leases
// alive by hand.
package etcdrenew

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

var errLost = errors.New("lost the etcd session")

type runner struct {
	cli *clientv3.Client
	db  *sql.DB
}

// sessionIgnored: nothing waits on the session, so when its lease expires
// the loop keeps updating rows.
func (r *runner) sessionIgnored(ctx context.Context, jobs []string) error {
	s, err := concurrency.NewSession(r.cli, concurrency.WithTTL(10)) // want `nothing waits on this etcd session's Done\(\) or uses its Ctx\(\), so the work never hears when its lease expires and the write at line 37 goes on; derive the work's context from session.Ctx\(\) \(or select on session.Done\(\)\) and fence the write`
	if err != nil {
		return err
	}
	defer s.Close()
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	for _, j := range jobs {
		if _, err := r.db.ExecContext(ctx, `UPDATE jobs SET done = true WHERE name = $1`, j); err != nil {
			return err
		}
	}
	return nil
}

// sessionDoneLogged: a goroutine waits on Done, but only to log.
func (r *runner) sessionDoneLogged(ctx context.Context, jobs []string) error {
	s, err := concurrency.NewSession(r.cli) // want `nothing waits on this etcd session's Done\(\)`
	if err != nil {
		return err
	}
	defer s.Close()
	go func() {
		<-s.Done()
		log.Print("etcd session lost")
	}()
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return r.update(ctx, jobs)
}

// sessionCtx: the work runs on the session's ctx, which is cancelled when
// the session's lease is gone.
func (r *runner) sessionCtx(jobs []string) error {
	s, err := concurrency.NewSession(r.cli)
	if err != nil {
		return err
	}
	defer s.Close()
	ctx := s.Ctx()
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return r.update(ctx, jobs)
}

// sessionDoneCancels: losing the session cancels the work's context.
func (r *runner) sessionDoneCancels(ctx context.Context, jobs []string) error {
	s, err := concurrency.NewSession(r.cli)
	if err != nil {
		return err
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-s.Done():
			cancel()
		case <-ctx.Done():
		}
	}()
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return r.update(ctx, jobs)
}

// sessionSelected: the worker loop stops when the session is done.
func (r *runner) sessionSelected(ctx context.Context, jobs <-chan string) error {
	s, err := concurrency.NewSession(r.cli)
	if err != nil {
		return err
	}
	defer s.Close()
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	for {
		select {
		case <-s.Done():
			return errLost
		case j := <-jobs:
			if _, err := r.db.ExecContext(ctx, `UPDATE jobs SET done = true WHERE name = $1`, j); err != nil {
				return err
			}
		}
	}
}

// registration: a key attached to the lease dies with it; nothing else is
// written, so there is nothing for a lost lease to corrupt.
func (r *runner) registration(ctx context.Context, addr string) error {
	lease, err := r.cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	if _, err := r.cli.Put(ctx, "/services/api/"+addr, addr, clientv3.WithLease(lease.ID)); err != nil {
		return err
	}
	ch, err := r.cli.KeepAlive(ctx, lease.ID)
	if err != nil {
		return err
	}
	go func() {
		for range ch {
		}
	}()
	return nil
}

// keepAliveDrained: the session runs on a lease kept alive by hand, and the
// KeepAlive channel is only drained, so its closing goes unnoticed.
func (r *runner) keepAliveDrained(ctx context.Context, jobs []string) error {
	lease, err := r.cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	ch, err := r.cli.KeepAlive(ctx, lease.ID) // want `nothing acts when the channel of Lease.KeepAlive closes, so the work never hears that the lease is gone and the write at line \d+ goes on`
	if err != nil {
		return err
	}
	go func() {
		for range ch {
		}
	}()
	s, err := concurrency.NewSession(r.cli, concurrency.WithLease(lease.ID), concurrency.WithContext(ctx)) // the same lease: reported once, at KeepAlive
	if err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return r.update(ctx, jobs)
}

// keepAliveDiscarded keeps the lease alive and throws the channel away:
// nothing hears when the keep-alives stop.
func (r *runner) keepAliveDiscarded(ctx context.Context, jobs []string) error {
	lease, err := r.cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	if _, err := r.cli.KeepAlive(ctx, lease.ID); err != nil { // want `this discards the channel Lease.KeepAlive returns, so the work never hears when the keep-alives stop and the lease expires, and the write at line \d+ goes on; keep the channel, drain it, and cancel the work's context when it closes`
		return err
	}
	s, err := concurrency.NewSession(r.cli, concurrency.WithLease(lease.ID))
	if err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return r.update(ctx, jobs)
}

// keepAlive starts the keep-alives of a lease and drops their channel.
func (r *runner) keepAlive(ctx context.Context, id clientv3.LeaseID) error {
	_, err := r.cli.KeepAlive(ctx, id) // want `this discards the channel Lease.KeepAlive returns, so the work never hears when the keep-alives stop and the lease expires, and the write at line \d+ goes on`
	return err
}

// keepAliveInHelper runs the jobs on a lease a helper keeps alive.
func (r *runner) keepAliveInHelper(ctx context.Context, jobs []string) error {
	lease, err := r.cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	if err := r.keepAlive(ctx, lease.ID); err != nil {
		return err
	}
	s, err := concurrency.NewSession(r.cli, concurrency.WithLease(lease.ID))
	if err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return r.update(ctx, jobs)
}

// keepAliveWatched cancels the work when the KeepAlive channel closes.
func (r *runner) keepAliveWatched(ctx context.Context, jobs []string) error {
	lease, err := r.cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	ch, err := r.cli.KeepAlive(ctx, lease.ID)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		for range ch {
		}
		cancel()
	}()
	s, err := concurrency.NewSession(r.cli, concurrency.WithLease(lease.ID), concurrency.WithContext(ctx))
	if err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(s.Ctx()); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return r.update(ctx, jobs)
}

// keepAliveOnceLoop renews by hand and ignores failures.
func (r *runner) keepAliveOnceLoop(ctx context.Context, id clientv3.LeaseID) {
	go func() { // want `this goroutine renews the etcd lock with Lease.KeepAliveOnce`
		for {
			time.Sleep(3 * time.Second)
			if _, err := r.cli.KeepAliveOnce(ctx, id); err != nil {
				log.Printf("keepalive: %v", err)
			}
		}
	}()
}

// keepAliveOnceFatal: a lost lease ends the process.
func (r *runner) keepAliveOnceFatal(ctx context.Context, id clientv3.LeaseID) {
	go func() {
		for {
			time.Sleep(3 * time.Second)
			if _, err := r.cli.KeepAliveOnce(ctx, id); err != nil {
				log.Fatalf("lost the lease: %v", err)
			}
		}
	}()
}

func (r *runner) update(ctx context.Context, jobs []string) error {
	for _, j := range jobs {
		if _, err := r.db.ExecContext(ctx, `UPDATE jobs SET done = true WHERE name = $1`, j); err != nil {
			return err
		}
	}
	return nil
}
