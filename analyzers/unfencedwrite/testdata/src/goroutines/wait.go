package goroutines

import (
	"context"
	"time"

	"go.etcd.io/etcd/client/v3/concurrency"
	"k8s.io/apimachinery/pkg/util/wait"
)

// sweep deletes expired assignments with no fence, as a wait loop's step.
func (a *Assigner) sweep(ctx context.Context) {
	a.db.ExecContext(ctx, `DELETE FROM assignments WHERE owner = 'me'`)
}

// ready only reads.
func (a *Assigner) ready(ctx context.Context) (bool, error) {
	var n int
	err := a.db.QueryRowContext(ctx, `SELECT count(*) FROM partitions WHERE owner IS NULL`).Scan(&n)
	return n == 0, err
}

// Supervise runs the assigner's loops with k8s.io/apimachinery's wait
// package while it holds the mutex: each loop writes under the lease, and
// stopping on the session's Done fences nothing (a holder paused past its
// lease writes before it next looks at the channel).
func (a *Assigner) Supervise(ctx context.Context) error {
	m := concurrency.NewMutex(a.session, "/leader")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	stop := a.session.Done()
	wait.Until(func() { a.flush() }, time.Second, stop) // want `Assigner.flush \(DB.Exec \(INSERT assignments\) at goroutines.go:\d+\) writes to SQL database without a fencing token`
	wait.UntilWithContext(ctx, a.sweep, time.Second)    // want `wait.UntilWithContext\(Assigner.sweep\) \(DB.ExecContext \(DELETE assignments\) at wait.go:\d+\) writes to SQL database without a fencing token while the etcd lock taken by Mutex.Lock`
	_ = wait.PollUntilContextCancel(ctx, time.Second, true, a.ready)
	var g wait.Group
	g.StartWithContext(ctx, a.sweep) // want `Group.StartWithContext\(Assigner.sweep\) .* without a fencing token`
	g.Start(func() {
		a.exec(ctx, "compact") // want `Assigner.exec \(DB.ExecContext \(UPDATE job_results\) at goroutines.go:\d+\) writes to SQL database without a fencing token`
	})
	g.Wait()
	return nil
}

// SuperviseFollower runs the same loops holding nothing: nothing to fence
// against.
func (a *Assigner) SuperviseFollower(ctx context.Context) {
	wait.UntilWithContext(ctx, a.sweep, time.Second)
	var g wait.Group
	g.StartWithContext(ctx, a.sweep)
	g.Wait()
}

// StartJobs starts each job in a wait.Group goroutine that takes the lock
// itself for the write that needs it, as startJob does with go: the job
// runs outside its starter's hold of the lock.
func (a *Assigner) StartJobs(ctx context.Context, jobs []string) error {
	m := concurrency.NewMutex(a.session, "/leader")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	var g wait.Group
	for _, job := range jobs {
		g.Start(func() {
			a.exec(ctx, job)
			jm := concurrency.NewMutex(a.session, "/leader")
			if err := jm.Lock(ctx); err != nil {
				return
			}
			defer jm.Unlock(ctx)
			a.db.ExecContext(ctx, `UPDATE jobs SET state = 'finished' WHERE id = $1`, job) // want `DB.ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token while the etcd lock taken by Mutex.Lock \(line \d+\) is held`
		})
	}
	g.Wait()
	return nil
}
