// Package leaseonly is a leader whose work is written in functions the
// election region calls: each write is reported where it is made, when
// every call of its function is made under the lease, and at the call
// otherwise.
package leaseonly

import (
	"context"
	"database/sql"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/clientv3util"
	"go.etcd.io/etcd/client/v3/concurrency"
)

type controller struct {
	cli     *clientv3.Client
	db      *sql.DB
	session *concurrency.Session
	steps   []func(context.Context) error
}

// Run campaigns, then runs the loop: the loop, its step and the step's
// writes run only under the election.
func (c *controller) Run(ctx context.Context) error {
	e := concurrency.NewElection(c.session, "/leader")
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	leaderKey := e.Key()
	return c.loop(ctx, leaderKey)
}

func (c *controller) loop(ctx context.Context, leaderKey string) error {
	for {
		if err := c.step(ctx, leaderKey); err != nil {
			return err
		}
		go func() {
			c.record(ctx, leaderKey) // the key, captured: fenced by its callers' election
		}()
		if err := c.sweep(ctx); err != nil { // want `controller.sweep \(DB.ExecContext \(DELETE jobs\) at leader.go:\d+\) writes to SQL database without a fencing token while the etcd lock taken by Election.Campaign \(line 27, in controller.Run, under which every call of controller.loop is made\) is held: .* \(loop makes 1 more unfenced write under this lease: see the related positions\)`
			return err
		}
		c.steps = append(c.steps, c.notify)
		defer c.flush(ctx)
	}
}

// step is only the loop's: its writes are reported here, naming the
// function that takes the lease.
func (c *controller) step(ctx context.Context, leaderKey string) error {
	if _, err := c.cli.Put(ctx, "/status", "running"); err != nil { // want `KV.Put writes to etcd without a fencing token while the etcd lock taken by Election.Campaign \(line 27, in controller.Run, under which every call of controller.step is made\) is held`
		return err
	}
	if err := c.assign(ctx, "job-1"); err != nil {
		return err
	}
	return c.putFenced(ctx, leaderKey, "/jobs/1", "assigned")
}

// assign is one call further down, still only under the lease.
func (c *controller) assign(ctx context.Context, job string) error {
	_, err := c.db.ExecContext(ctx, `UPDATE jobs SET owner = 'me' WHERE id = $1`, job) // want `DB.ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token while the etcd lock taken by Election.Campaign \(line 27, in controller.Run, under which every call of controller.assign is made\) is held`
	return err
}

// putFenced writes only while the key its caller gives exists: the
// caller's election key fences it, judged where it is called.
func (c *controller) putFenced(ctx context.Context, leaderKey, key, value string) error {
	resp, err := c.cli.Txn(ctx).
		If(clientv3util.KeyExists(leaderKey)).
		Then(clientv3.OpPut(key, value)).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return context.Canceled
	}
	return nil
}

// record is called from a goroutine of the loop's that captured the key.
func (c *controller) record(ctx context.Context, leaderKey string) {
	_ = c.putFenced(ctx, leaderKey, "/records/last", "done")
}

// sweep is also an operator's (Sweep): not only the leader's, so its write
// is its callers' and reported where the leader calls it.
func (c *controller) sweep(ctx context.Context) error {
	_, err := c.db.ExecContext(ctx, `DELETE FROM jobs WHERE done`)
	return err
}

// Sweep runs a sweep on request, as no leader.
func (c *controller) Sweep(ctx context.Context) error {
	return c.sweep(ctx)
}

// notify is kept as a value, to be called by whoever runs the steps.
func (c *controller) notify(ctx context.Context) error {
	_, err := c.cli.Put(ctx, "/notified", "yes")
	return err
}

// flush is deferred: a deferred call runs when its function returns, not
// where it is written, so flush is not entered and its write is the
// defer's, one more of the loop's (a related position of the loop's
// finding).
func (c *controller) flush(ctx context.Context) {
	c.db.ExecContext(ctx, `UPDATE stats SET flushed_at = now()`)
}

// closeDay takes a transaction-level advisory lock and hands the
// transaction to a helper that writes through it: fenced by the session,
// judged where the helper is called.
func closeDay(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", 7); err != nil {
		return err
	}
	if err := closeInvoices(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

func closeInvoices(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `UPDATE invoices SET state = 'closed' WHERE due < now()`)
	return err
}

// twoLocks calls mark under two different locks: its write is reported at each
// call, under the lock that call holds.
func twoLocks(ctx context.Context, cli *clientv3.Client, s *concurrency.Session) error {
	a := concurrency.NewMutex(s, "/a")
	if err := a.Lock(ctx); err != nil {
		return err
	}
	_ = mark(ctx, cli) // want `leaseonly.mark \(KV.Put at leader.go:\d+\) writes to etcd without a fencing token while the etcd lock taken by Mutex.Lock \(line 142\) is held`
	_ = a.Unlock(ctx)
	b := concurrency.NewMutex(s, "/b")
	if err := b.Lock(ctx); err != nil {
		return err
	}
	defer b.Unlock(ctx)
	return mark(ctx, cli) // want `leaseonly.mark \(KV.Put at leader.go:\d+\) writes to etcd without a fencing token while the etcd lock taken by Mutex.Lock \(line 148\) is held`
}

func mark(ctx context.Context, cli *clientv3.Client) error {
	_, err := cli.Put(ctx, "/marked", "yes")
	return err
}

// Settle runs settle under its lock.
func Settle(ctx context.Context, cli *clientv3.Client, db *sql.DB, s *concurrency.Session) error {
	m := concurrency.NewMutex(s, "/settle")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return settle(ctx, db)
}

// settle appends an audit row, then overwrites the balance: the finding
// names the overwrite, the write that loses data, and lists the append.
func settle(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, `INSERT INTO audit (event) VALUES ('settle')`); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE balances SET settled = total WHERE id = 1`) // want `DB.ExecContext \(UPDATE balances\) writes to SQL database without a fencing token .* \(settle makes 1 more unfenced write under this lease: see the related positions\)`
	return err
}
