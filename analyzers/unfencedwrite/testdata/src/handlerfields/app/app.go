// Package app wires its controllers to the election and its jobs to the
// task table.
package app

import (
	"context"
	"database/sql"

	"handlerfields/crontab"
	"handlerfields/member"
)

type controller struct {
	db *sql.DB
}

// onMembership runs under the election's mutex (member.Register).
func (c *controller) onMembership(ctx context.Context, ev member.Event) error {
	if ev != member.BecameLeader {
		return nil
	}
	_, err := c.db.ExecContext(ctx, "UPDATE shards SET owner = $1", "me") // want `writes to SQL database without a fencing token`
	return err
}

// flush runs at shutdown (member.OnStop), with no lease.
func (c *controller) flush() {
	_, _ = c.db.Exec("UPDATE nodes SET state = 'stopped' WHERE id = $1", 1)
}

// follow runs in the goroutine the election starts under its mutex.
func (c *controller) follow(ctx context.Context) {
	_, _ = c.db.ExecContext(ctx, "DELETE FROM shard_moves WHERE done") // want `writes to SQL database without a fencing token`
}

// rebalance runs under the election's mutex (member.OnLeader).
func (c *controller) rebalance(ctx context.Context) {
	_, _ = c.db.ExecContext(ctx, "UPDATE shards SET weight = weight * 2 WHERE hot") // want `writes to SQL database without a fencing token`
}

// Wire registers the controller's methods with the election.
func Wire(m member.Member, c *controller) {
	m.Register(c.onMembership)
	m.OnLeader(c.rebalance)
	m.OnStop(c.flush)
	m.Watch("moves", c.follow)
}

type jobs struct {
	db *sql.DB
}

// runTask runs under the task's lock (crontab.Table.Start).
func (j *jobs) runTask(ctx context.Context, id int) error {
	_, err := j.db.ExecContext(ctx, "UPDATE tasks SET last_run = now() WHERE id = $1", id) // want `writes to SQL database without a fencing token`
	return err
}

// record runs once the task's lock is let go (crontab.Table.OnReport).
func (j *jobs) record(id int, err error) {
	_, _ = j.db.Exec("INSERT INTO task_runs (task, ok) VALUES ($1, $2)", id, err == nil)
}

// Schedule hands the job runner to the task table.
func Schedule(t *crontab.Table, j *jobs) {
	t.Start(j.runTask)
	t.OnReport(j.record)
}
