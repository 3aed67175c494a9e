// Package etcdlock is a config reconciler that serializes itself with an
// etcd mutex.
package etcdlock

import (
	"context"
	"database/sql"
	"errors"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

var errLost = errors.New("lost the lock")

type reconciler struct {
	cli *clientv3.Client
	db  *sql.DB
}

// publish writes the rendered config with a plain Put while holding the
// mutex: a frozen holder overwrites its successor's config.
func (r *reconciler) publish(ctx context.Context, cfg string) error {
	s, err := concurrency.NewSession(r.cli, concurrency.WithTTL(10))
	if err != nil {
		return err
	}
	defer s.Close()
	m := concurrency.NewMutex(s, "/locks/config")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = r.cli.Put(ctx, "/config/current", cfg) // want `KV.Put writes to etcd without a fencing token while the etcd lock taken by Mutex.Lock \(line 30\) is held: .*Txn\(ctx\).If\(mutex.IsOwner\(\)\)`
	return err
}

// publishFenced commits only while the mutex key is still ours.
func (r *reconciler) publishFenced(ctx context.Context, m *concurrency.Mutex, cfg string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	resp, err := r.cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("/config/current", cfg)).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errLost
	}
	return nil
}

// publishTxnNoIf uses a Txn, but one that is conditional on nothing.
func (r *reconciler) publishTxnNoIf(ctx context.Context, m *concurrency.Mutex, cfg string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := r.cli.Txn(ctx).Then(clientv3.OpPut("/config/current", cfg)).Commit() // want `Txn.Commit writes to etcd without a fencing token`
	return err
}

// mirror writes the revision-fenced row to PostgreSQL: quiet.
func (r *reconciler) mirror(ctx context.Context, m *concurrency.Mutex, cfg string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	rev := m.Header().Revision
	res, err := r.db.ExecContext(ctx, `UPDATE config SET body = $1, fence = $2 WHERE name = 'current' AND fence < $2`, cfg, rev)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errLost
	}
	return nil
}

// loopWithTry holds the lock only after a successful TryLock, in a loop.
func (r *reconciler) loopWithTry(ctx context.Context, m *concurrency.Mutex, items []string) error {
	for _, it := range items {
		if err := m.TryLock(ctx); err != nil {
			if _, err := r.cli.Put(ctx, "/skipped/"+it, "busy"); err != nil { // no lease here: quiet
				return err
			}
			continue
		}
		if _, err := r.cli.Delete(ctx, "/queue/"+it); err != nil { // want `KV.Delete writes to etcd without a fencing token while the etcd lock taken by Mutex.TryLock`
			return err
		}
		if err := m.Unlock(ctx); err != nil {
			return err
		}
	}
	return nil
}

// campaign writes as the elected leader; Proclaim is fenced by etcd itself.
func campaign(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	e := concurrency.NewElection(s, "/leader/scheduler")
	if err := e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	defer e.Resign(ctx)
	if err := e.Proclaim(ctx, "node-1 ready"); err != nil {
		return err
	}
	resp, err := cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(e.Key()), "=", e.Rev())).
		Then(clientv3.OpPut("/schedule", "v2")).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errLost
	}
	return nil
}

// unrelatedCompare guards the Txn with a key the holder does not own.
func (r *reconciler) unrelatedCompare(ctx context.Context, m *concurrency.Mutex, cfg string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := r.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.Value("/config/mode"), "=", "active")).
		Then(clientv3.OpPut("/config/current", cfg)).
		Commit() // want `Txn.Commit writes to etcd without a fencing token`
	return err
}

// casOnWrittenKey compares the revision of the very key it writes.
func (r *reconciler) casOnWrittenKey(ctx context.Context, m *concurrency.Mutex, rev int64, cfg string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	resp, err := r.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.ModRevision("/config/current"), "=", rev)).
		Then(clientv3.OpPut("/config/current", cfg)).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errLost
	}
	return nil
}

// compactGroups deletes each old group key only if it is unchanged since
// the List: the compare and the delete name the same key, each converted
// from the listed KeyValue's bytes on its own.
func (r *reconciler) compactGroups(ctx context.Context, m *concurrency.Mutex, below int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	resp, err := r.cli.Get(ctx, "/groups/", clientv3.WithPrefix())
	if err != nil {
		return err
	}
	for _, kv := range resp.Kvs {
		if kv.ModRevision >= below {
			continue
		}
		cmp := clientv3.Compare(clientv3.ModRevision(string(kv.Key)), "=", kv.ModRevision)
		if _, err := r.cli.Txn(ctx).If(cmp).Then(clientv3.OpDelete(string(kv.Key))).Commit(); err != nil {
			return err
		}
	}
	first := resp.Kvs[0]
	_, err = r.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.ModRevision(string(resp.Kvs[0].Key)), "=", first.ModRevision)).
		Then(clientv3.OpPut(string(resp.Kvs[0].Key), "compacted")).
		Commit()
	return err
}

// compactOther compares one listed key's revision and deletes another's.
func (r *reconciler) compactOther(ctx context.Context, m *concurrency.Mutex) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	resp, err := r.cli.Get(ctx, "/groups/", clientv3.WithPrefix())
	if err != nil || len(resp.Kvs) < 2 {
		return err
	}
	_, err = r.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.ModRevision(string(resp.Kvs[0].Key)), "=", resp.Kvs[0].ModRevision)).
		Then(clientv3.OpDelete(string(resp.Kvs[1].Key))).
		Commit() // want `Txn.Commit writes to etcd without a fencing token`
	return err
}

// legacy takes the etcd lock through its sync.Locker form.
func legacy(s *concurrency.Session, db *sql.DB) error {
	l := concurrency.NewLocker(s, "/locks/legacy")
	l.Lock()
	defer l.Unlock()
	_, err := db.Exec(`UPDATE counters SET n = n + 1`) // want `DB.Exec \(UPDATE counters\) writes to SQL database without a fencing token while the etcd lock taken by Locker.Lock`
	return err
}

// monthlyReset sets every user's counters to 0: it picks no rows and
// carries no value, so a stale holder's copy is the same reset made late:
// quiet. Its twins reset the users of the plan it was handed, and clear a
// flag the next holder may have set.
func monthlyReset(ctx context.Context, m *concurrency.Mutex, db *sql.DB, plan string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	if _, err := db.ExecContext(ctx, `UPDATE users SET usage_count = 0, sms_count = 0`); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `UPDATE users SET over_quota = FALSE`); err != nil { // want `DB.ExecContext \(UPDATE users\) writes to SQL database without a fencing token`
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE users SET usage_count = 0 WHERE plan = $1`, plan) // want `DB.ExecContext \(UPDATE users\) writes to SQL database without a fencing token`
	return err
}

// campaignPut writes as the elected leader with a plain Put: the advice is
// the election's own check, an election has no Mutex to ask IsOwner.
func campaignPut(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	e := concurrency.NewElection(s, "/leader/scheduler")
	if err := e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	defer e.Resign(ctx)
	_, err := cli.Put(ctx, "/schedule", "v2") // want `KV.Put writes to etcd without a fencing token while the etcd lock taken by Election.Campaign \(line \d+\) is held: .*Txn\(ctx\).If\(clientv3.Compare\(clientv3.CreateRevision\(election.Key\(\)\), "=", election.Rev\(\)\)\)`
	return err
}
