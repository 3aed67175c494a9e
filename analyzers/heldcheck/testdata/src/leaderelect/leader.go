// Package leaderelect checks leadership with client-go's LeaderElector
// before writing to PostgreSQL.
package leaderelect

import (
	"context"
	"database/sql"
	"errors"
	"log"

	"k8s.io/client-go/tools/leaderelection"
)

var errLost = errors.New("a newer leader wrote first")

type worker struct {
	le *leaderelection.LeaderElector
	db *sql.DB
}

// publish checks leadership, then writes: the check is stale by the write.
func (w *worker) publish(ctx context.Context, id int64) error {
	if w.le.IsLeader() { // want `LeaderElector.IsLeader only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE reports\) at line 24: a pause between the check and the write lets the lease expire, which makes the check worthless; fence it: add`
		_, err := w.db.ExecContext(ctx, "UPDATE reports SET state = 'published' WHERE id = $1", id)
		return err
	}
	return nil
}

// earlyReturn leaves when not leader; everything after it is guarded.
func (w *worker) earlyReturn(ctx context.Context, id int64) error {
	if !w.le.IsLeader() { // want `LeaderElector.IsLeader only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(DELETE reports\) at line 36`
		return nil
	}
	log.Printf("cleaning report %d", id)
	_, err := w.db.ExecContext(ctx, "DELETE FROM reports WHERE id = $1", id)
	return err
}

// drain loops while leader.
func (w *worker) drain(ctx context.Context, ids []int64) {
	for i := 0; w.le.IsLeader() && i < len(ids); i++ { // want `LeaderElector.IsLeader only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE queue\) at line 43`
		if _, err := w.db.ExecContext(ctx, "UPDATE queue SET done = true WHERE id = $1", ids[i]); err != nil {
			return
		}
	}
}

// ready is a boolean assigned from &&: true only when leader.
func (w *worker) assigned(ctx context.Context, ready bool) {
	ok := w.le.IsLeader() && ready // want `LeaderElector.IsLeader only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(INSERT audit\) at line 53`
	if ok {
		w.db.ExecContext(ctx, "INSERT INTO audit (what) VALUES ('tick')")
	}
}

// inClosure writes in a goroutine started after the check.
func (w *worker) inClosure(ctx context.Context) {
	if w.le.IsLeader() { // want `LeaderElector.IsLeader only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE stats\) at line 61`
		go func() {
			w.db.ExecContext(ctx, "UPDATE stats SET runs = runs + 1")
		}()
	}
}

// fenced checks, then writes with a fence the database compares: fine.
func (w *worker) fenced(ctx context.Context, id, token int64) error {
	if !w.le.IsLeader() {
		return nil
	}
	res, err := w.db.ExecContext(ctx, "UPDATE reports SET state = 'published', fence = $2 WHERE id = $1 AND fence < $2", id, token)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errLost
	}
	return nil
}

// logOnly checks and only logs: fine.
func (w *worker) logOnly() {
	if w.le.IsLeader() {
		log.Print("I am the leader")
	}
}

// resultLogged only logs the result; the write runs either way and no
// lease is held, so there is nothing here for heldcheck.
func (w *worker) resultLogged(ctx context.Context) {
	log.Printf("leader: %v", w.le.IsLeader())
	w.db.ExecContext(ctx, "UPDATE heartbeats SET at = now()")
}

// eitherWay writes after the if/else, whichever way the check went.
func (w *worker) eitherWay(ctx context.Context) {
	if w.le.IsLeader() {
		log.Print("leader")
	} else {
		log.Print("follower")
	}
	w.db.ExecContext(ctx, "UPDATE heartbeats SET at = now()")
}

// standby writes only when not leader: the check does not vouch for it.
func (w *worker) standby(ctx context.Context) {
	if !w.le.IsLeader() {
		w.db.ExecContext(ctx, "UPDATE workers SET role = 'standby'")
	}
}

// readOnly reads behind the check: reads are not writes.
func (w *worker) readOnly(ctx context.Context) (n int, err error) {
	if w.le.IsLeader() {
		err = w.db.QueryRowContext(ctx, "SELECT count(*) FROM reports").Scan(&n)
	}
	return n, err
}

// reviewed is silenced with a reason.
func (w *worker) reviewed(ctx context.Context) {
	//fencelint:ignore the heartbeat row is overwritten by every leader, last write wins
	if w.le.IsLeader() {
		w.db.ExecContext(ctx, "UPDATE heartbeats SET leader_at = now()")
	}
}

// byName compares the observed leader's identity with our own.
func (w *worker) byName(ctx context.Context, me string) {
	if w.le.GetLeader() == me { // want `LeaderElector.GetLeader only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE reports\)`
		w.db.ExecContext(ctx, "UPDATE reports SET owner = $1", me)
	}
}

// anyLeader only asks whether there is a leader at all.
func (w *worker) anyLeader(ctx context.Context) {
	if w.le.GetLeader() != "" {
		w.db.ExecContext(ctx, "UPDATE reports SET seen_leader = true")
	}
}

// nolint is silenced golangci-lint style.
func (w *worker) nolint(ctx context.Context) {
	if w.le.IsLeader() { //nolint:heldcheck // the row is a heartbeat
		w.db.ExecContext(ctx, "UPDATE heartbeats SET leader_at = now()")
	}
}

// unread has a fence but never reads how many rows it changed.
func (w *worker) unread(ctx context.Context, id, token int64) error {
	if !w.le.IsLeader() { // want `IsLeader only tells .* unfenced write DB.ExecContext \(UPDATE reports\) \(fenced, but its rows-affected count is never read\) at line \d+: .*read RowsAffected\(\) and abort on 0`
		return nil
	}
	_, err := w.db.ExecContext(ctx, "UPDATE reports SET state = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, token)
	return err
}
