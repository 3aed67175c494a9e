// Package goroutines hands work to goroutines inside lease regions: the
// work runs under the lease just as a closure made there does.
package goroutines

import (
	"context"
	"database/sql"
	"sync"

	"github.com/go-redsync/redsync/v4"
	"go.etcd.io/etcd/client/v3/concurrency"
	"golang.org/x/sync/errgroup"
)

type Assigner struct {
	db      *sql.DB
	session *concurrency.Session
	rs      *redsync.Redsync
}

// rebalance moves partitions: it writes with no fence.
func (a *Assigner) rebalance(ctx context.Context) error {
	_, err := a.db.ExecContext(ctx, `UPDATE partitions SET owner = $1`, "me")
	return err
}

// flush writes the buffered assignments with no fence.
func (a *Assigner) flush() error {
	_, err := a.db.Exec(`INSERT INTO assignments (at) VALUES (now())`)
	return err
}

// fencedFlush compares the fence it is given.
func (a *Assigner) fencedFlush(ctx context.Context, fence int64) error {
	res, err := a.db.ExecContext(ctx, `UPDATE assignments SET done = true, fence = $1 WHERE fence < $1`, fence)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// Lead starts the rebalancer in a goroutine while it holds the mutex.
func (a *Assigner) Lead(ctx context.Context) error {
	m := concurrency.NewMutex(a.session, "/leader")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	go a.rebalance(ctx) // want `Assigner.rebalance \(DB.ExecContext \(UPDATE partitions\) at goroutines.go:\d+\) writes to SQL database without a fencing token while the etcd lock taken by Mutex.Lock \(line 46\) is held`
	var g errgroup.Group
	g.Go(a.flush)                           // want `Group.Go\(Assigner.flush\) \(DB.Exec \(INSERT assignments\) at goroutines.go:\d+\) writes to SQL database without a fencing token`
	g.Go(func() error { return a.flush() }) // want `Assigner.flush \(DB.Exec \(INSERT assignments\) at goroutines.go:\d+\) writes to SQL database without a fencing token`
	var wg sync.WaitGroup
	wg.Go(func() { a.fencedFlush(ctx, m.Header().Revision) })
	go a.fencedFlush(ctx, m.Header().Revision)
	wg.Wait()
	return g.Wait()
}

// Follow starts the same work with no lock held: nothing to fence against.
func (a *Assigner) Follow(ctx context.Context) error {
	go a.rebalance(ctx)
	var g errgroup.Group
	g.Go(a.flush)
	return g.Wait()
}

// After starts the work once the lock is given back.
func (a *Assigner) After(ctx context.Context) error {
	m := concurrency.NewMutex(a.session, "/leader")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	if err := m.Unlock(ctx); err != nil {
		return err
	}
	go a.rebalance(ctx)
	return nil
}

// exec runs a job's handler, which writes with no fence.
func (a *Assigner) exec(ctx context.Context, job string) {
	a.db.ExecContext(ctx, `UPDATE job_results SET output = $1 WHERE job = $2`, "done", job)
}

// startJob runs the job in a goroutine nobody waits for, which takes the
// lock again for the write that needs it (Harness's runJob): the job was
// written to run outside its starter's lock.
func (a *Assigner) startJob(ctx context.Context, job string) {
	go func() {
		a.exec(ctx, job)
		m := concurrency.NewMutex(a.session, "/leader")
		if err := m.Lock(ctx); err != nil {
			return
		}
		defer m.Unlock(ctx)
		a.db.ExecContext(ctx, `UPDATE jobs SET state = 'finished' WHERE id = $1`, job) // want `DB.ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token while the etcd lock taken by Mutex.Lock \(line \d+\) is held`
	}()
}

// startUnlockedJob runs the job in a goroutine that takes no lock itself:
// it runs under whatever lease its starter holds.
func (a *Assigner) startUnlockedJob(ctx context.Context, job string) {
	go func() {
		a.exec(ctx, job) // want `Assigner.exec \(DB.ExecContext \(UPDATE job_results\) at goroutines.go:\d+\) writes to SQL database without a fencing token while the etcd lock taken by Mutex.Lock \(line 113, in Assigner.ProcessReady, under which every call of Assigner.startUnlockedJob is made\)`
	}()
}

// ProcessReady marks jobs running under the lock and starts them.
func (a *Assigner) ProcessReady(ctx context.Context, jobs []string) error {
	m := concurrency.NewMutex(a.session, "/leader")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	for _, job := range jobs {
		a.startJob(ctx, job)
		a.startUnlockedJob(ctx, job)
		go func() {
			a.exec(ctx, job) // want `Assigner.exec \(DB.ExecContext \(UPDATE job_results\) at goroutines.go:\d+\) writes to SQL database without a fencing token`
		}()
		go func() {
			a.exec(ctx, job)                  // want `Assigner.exec \(DB.ExecContext \(UPDATE job_results\) at goroutines.go:\d+\) writes to SQL database without a fencing token while the etcd lock taken by Mutex.Lock`
			jm := a.rs.NewMutex("job:" + job) // another lock: the goroutine still runs under the etcd one
			if err := jm.LockContext(ctx); err == nil {
				jm.UnlockContext(ctx)
			}
		}()
	}
	return nil
}
