// Package declared uses checks declared with //fencelint:check or found
// as wrappers, here and in another package.
package declared

import (
	"context"
	"database/sql"
	"errors"

	"k8s.io/client-go/tools/leaderelection"

	"leasecheck"
)

var errNotLeader = errors.New("not the leader")

type worker struct {
	le *leaderelection.LeaderElector
	db *sql.DB
	l  *leasecheck.Lease
}

// directive: a //fencelint:check method from another package.
func (w *worker) directive(ctx context.Context) {
	if w.l.Held(ctx) { // want `Lease.Held only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE pages\) at line 26`
		w.db.ExecContext(ctx, "UPDATE pages SET published = true WHERE id = 1")
	}
}

// crossWrapper: a wrapper of IsLeader from another package.
func (w *worker) crossWrapper(ctx context.Context) {
	if leasecheck.StillLeader(w.le) { // want `leasecheck.StillLeader only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(DELETE pages\)`
		w.db.ExecContext(ctx, "DELETE FROM pages WHERE draft")
	}
}

// leading wraps IsLeader in this package and returns an error.
func (w *worker) leading() error {
	if !w.le.IsLeader() {
		return errNotLeader
	}
	return nil
}

// localWrapper: the wrapper's nil error says "held".
func (w *worker) localWrapper(ctx context.Context) error {
	if err := w.leading(); err != nil { // want `leading only tells that the lease was held when it ran, yet it guards the unfenced write (worker\.)?save \(DB.ExecContext \(UPDATE pages\) at declared.go:55\) at line 50`
		return err
	}
	return w.save(ctx)
}

// save writes; called behind a check, the call is the guarded write.
func (w *worker) save(ctx context.Context) error {
	_, err := w.db.ExecContext(ctx, "UPDATE pages SET saved = true WHERE id = 1")
	return err
}

// guardedTwice names the first write and counts the others.
func (w *worker) guardedTwice(ctx context.Context) {
	if !w.l.Held(ctx) { // want `Lease.Held only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE pages\) at line 64 and 1 more`
		return
	}
	w.db.ExecContext(ctx, "UPDATE pages SET views = views + 1")
	w.db.ExecContext(ctx, "DELETE FROM page_cache")
}

// Status is what the worker reports about itself.
type Status struct {
	Leader bool
	Pages  int
}

// status calls the check but returns a report: its error and its nil
// pointer say nothing about the lease, so it is no check to lean on.
func (w *worker) status(ctx context.Context) (*Status, error) {
	st := &Status{Leader: w.le.IsLeader()}
	err := w.db.QueryRowContext(ctx, "SELECT count(*) FROM pages").Scan(&st.Pages)
	return st, err
}

// afterStatus writes after asking for the status.
func (w *worker) afterStatus(ctx context.Context) error {
	st, err := w.status(ctx)
	if err != nil || st == nil {
		return err
	}
	_, err = w.db.ExecContext(ctx, "UPDATE pages SET checked = now()")
	return err
}

// reconcile checks, then does its work, and returns nil either way: the
// check guards its own write, but reconcile is no check for its callers.
func (w *worker) reconcile(ctx context.Context) error {
	if !w.le.IsLeader() { // want `IsLeader only tells .* unfenced write (worker\.)?save`
		return nil
	}
	return w.save(ctx)
}

// sweep writes after reconcile returned nil, which it does when not leader
// too: not a check-then-write.
func (w *worker) sweep(ctx context.Context) error {
	if err := w.reconcile(ctx); err != nil {
		return err
	}
	_, err := w.db.ExecContext(ctx, "UPDATE pages SET swept = now()")
	return err
}

// waitLeader blocks until leader: callers that write after it do
// check-then-act.
func (w *worker) waitLeader(ctx context.Context) error {
	for !w.le.IsLeader() {
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

// afterWait writes once waitLeader returned.
func (w *worker) afterWait(ctx context.Context) error {
	if err := w.waitLeader(ctx); err != nil { // want `waitLeader only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE pages\)`
		return err
	}
	_, err := w.db.ExecContext(ctx, "UPDATE pages SET leader_since = now()")
	return err
}

// crossWrite calls a writer from another package behind the check: the
// report names the inner write.
func (w *worker) crossWrite(ctx context.Context) error {
	if !w.le.IsLeader() { // want `IsLeader only tells .* unfenced write leasecheck.Touch \(DB.ExecContext \(UPDATE pages\) at leasecheck.go:\d+\)`
		return nil
	}
	return leasecheck.Touch(ctx, w.db, 1)
}
