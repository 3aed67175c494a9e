// Package worker writes through fencegen's generated store (fencegen/store,
// a copy of examples/frozendemo/store): the token reaches the store through
// store.TokenOf or a generated token source and a generated fenced method.
package worker

import (
	"context"
	"math/rand"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/hashicorp/consul/api"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.etcd.io/etcd/client/v3/concurrency"

	"fencegen/store"
	"fencegen/tokens"
)

// lateNextval is the demo's late-token variant: a redsync lock, then a
// sequence drawn in a separate statement.
func lateNextval(ctx context.Context, pool *pgxpool.Pool, rs *redsync.Redsync) error {
	m := rs.NewMutex("balances")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	var n int64
	if err := pool.QueryRow(ctx, "SELECT nextval('fence_token_seq')").Scan(&n); err != nil {
		return err
	}
	return store.NewFenced(pool).UpdateBalance(ctx, store.TokenOf(n), store.UpdateBalanceParams{ID: 1, Amount: 100, WrittenBy: "a"}) // want `Fenced.UpdateBalance \(fencegen's fenced write\) is fenced with the query "SELECT nextval\('fence_token_seq'\)" \(line 29\), which is not a fencing token: it is drawn in a separate step after the redsync lock taken by Mutex.LockContext \(line 24\) was taken`
}

// lateNextToken draws from fencegen's own sequence, after acquiring.
func lateNextToken(ctx context.Context, f *store.Fenced, rs *redsync.Redsync) error {
	m := rs.NewMutex("balances")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	token, err := f.NextToken(ctx)
	if err != nil {
		return err
	}
	return f.DeleteBalance(ctx, token, store.DeleteBalanceParams{ID: 1}) // want `Fenced.DeleteBalance \(fencegen's fenced write\) is fenced with Fenced.NextToken\(\), which returns a sequence's next value \(line 42\), which is not a fencing token: it is drawn in a separate step after the redsync lock taken by Mutex.LockContext \(line 38\) was taken`
}

// nextTokenFirst draws its token before it waits for the lock: a holder
// that gets the lock later has the older token and is refused.
func nextTokenFirst(ctx context.Context, f *store.Fenced, rs *redsync.Redsync) error {
	token, err := f.NextToken(ctx)
	if err != nil {
		return err
	}
	m := rs.NewMutex("balances")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return f.DeleteBalance(ctx, token, store.DeleteBalanceParams{ID: 1})
}

// leaseID converts the etcd session's lease ID into a token.
func leaseID(ctx context.Context, f *store.Fenced, s *concurrency.Session) error {
	m := concurrency.NewMutex(s, "/balances")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return f.UpsertBalance(ctx, store.TokenOf(int64(s.Lease())), store.UpsertBalanceParams{ID: 1, Amount: 100}) // want `Fenced.UpsertBalance \(fencegen's fenced write\) is fenced with Session.Lease\(\) \(line 71\), which is not a fencing token: an etcd lease ID is picked per cluster member.*; use the revision the lock was acquired at, m.Header\(\).Revision`
}

// revision converts the revision the mutex was acquired at: a real token.
func revision(ctx context.Context, f *store.Fenced, s *concurrency.Session) error {
	m := concurrency.NewMutex(s, "/balances")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	token := store.TokenOf(m.Header().Revision)
	return f.UpdateBalance(ctx, token, store.UpdateBalanceParams{ID: 1, Amount: 100})
}

// election converts the revision at which the election was won.
func election(ctx context.Context, f *store.Fenced, s *concurrency.Session) error {
	e := concurrency.NewElection(s, "/leader")
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	defer e.Resign(ctx)
	return f.UpdateBalance(ctx, store.TokenOf(e.Rev()), store.UpdateBalanceParams{ID: 1, Amount: 100})
}

// clock stamps the write with the time: holders' clocks disagree.
func clock(ctx context.Context, f *store.Fenced, rs *redsync.Redsync) error {
	m := rs.NewMutex("balances")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return f.UpdateBalance(ctx, store.TokenOf(time.Now().UnixNano()), store.UpdateBalanceParams{ID: 1, Amount: 100}) // want `Fenced.UpdateBalance \(fencegen's fenced write\) is fenced with time.Now\(\).UnixNano\(\) \(line 102\), which is not a fencing token.*; use .*, or the token of store.Fenced.AcquireLease \(fencegen's lease table hands it out in the statement that takes the lease\)$`
}

// random makes up a token.
func random(ctx context.Context, f *store.Fenced, rs *redsync.Redsync) error {
	m := rs.NewMutex("balances")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	token := store.TokenOf(rand.Int63())
	return f.UpdateBalance(ctx, token, store.UpdateBalanceParams{ID: 1, Amount: 100}) // want `Fenced.UpdateBalance \(fencegen's fenced write\) is fenced with rand.Int63\(\) \(line 112\), which is not a fencing token`
}

// constant passes the same token for every holder: the fence never
// refuses anyone.
func constant(ctx context.Context, f *store.Fenced, rs *redsync.Redsync) error {
	m := rs.NewMutex("balances")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return f.UpdateBalance(ctx, store.TokenOf(1), store.UpdateBalanceParams{ID: 1, Amount: 100}) // want `Fenced.UpdateBalance \(fencegen's fenced write\) is fenced with the constant 1 \(line 124\), which is not a fencing token: every holder passes the same value`
}

// seed writes the first row version outside any lease, with a constant:
// not a holder's write, nothing to fence against.
func seed(ctx context.Context, f *store.Fenced) error {
	return f.UpsertBalance(ctx, store.TokenOf(0), store.UpsertBalanceParams{ID: 1})
}

// leaseTable takes fencegen's lease, whose token is handed out by the
// acquiring statement.
func leaseTable(ctx context.Context, f *store.Fenced, me string) error {
	token, err := f.AcquireLease(ctx, "balances", me, 10*time.Second)
	if err != nil {
		return err
	}
	defer f.ReleaseLease(ctx, "balances", me, token)
	return f.UpdateBalance(ctx, token, store.UpdateBalanceParams{ID: 1, Amount: 100})
}

// lockIndexChecked fences with Consul's LockIndex read from a pair whose
// Session is this holder's: the sequencer.
func lockIndexChecked(ctx context.Context, f *store.Fenced, c *api.Client, sid string) error {
	ok, _, err := c.KV().Acquire(&api.KVPair{Key: "balances", Session: sid}, nil)
	if err != nil || !ok {
		return err
	}
	defer c.KV().Release(&api.KVPair{Key: "balances", Session: sid}, nil)
	pair, _, err := c.KV().Get("balances", nil)
	if err != nil || pair == nil || pair.Session != sid {
		return err
	}
	return f.UpdateBalance(ctx, store.TokenOf(int64(pair.LockIndex)), store.UpdateBalanceParams{ID: 1, Amount: 100})
}

// A job carries the token it writes with.
type job struct {
	token store.Token
	id    int64
}

// runJob takes the lock and hands the job its token: the revision.
func runJob(ctx context.Context, f *store.Fenced, s *concurrency.Session, j *job) error {
	m := concurrency.NewMutex(s, "/balances")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	j.token = store.TokenOf(m.Header().Revision)
	return save(ctx, f, j.token, j.id)
}

// runLateJob takes the lock and then draws the job's token.
func runLateJob(ctx context.Context, f *store.Fenced, rs *redsync.Redsync, j *job) error {
	m := rs.NewMutex("balances")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	tok, err := f.NextToken(ctx)
	if err != nil {
		return err
	}
	return save(ctx, f, tok, j.id) // want `worker.save \(fencegen's fenced write, via Fenced.UpdateBalance\) is fenced with Fenced.NextToken\(\), which returns a sequence's next value \(line 183\), which is not a fencing token: it is drawn in a separate step after the redsync lock taken by Mutex.LockContext \(line 179\)`
}

// save writes with the token its caller passes: judged at each call.
func save(ctx context.Context, f *store.Fenced, token store.Token, id int64) error {
	return f.UpdateBalance(ctx, token, store.UpdateBalanceParams{ID: id, Amount: 100})
}

// fromHelpers converts through helpers of another package.
func fromHelpers(ctx context.Context, f *store.Fenced, s *concurrency.Session) error {
	m := concurrency.NewMutex(s, "/balances")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	if err := f.UpdateBalance(ctx, tokens.Revision(m), store.UpdateBalanceParams{ID: 1}); err != nil {
		return err
	}
	return f.UpdateBalance(ctx, tokens.Lease(s), store.UpdateBalanceParams{ID: 2}) // want `Fenced.UpdateBalance \(fencegen's fenced write\) is fenced with tokens.Lease\(\), which returns Session.Lease\(\)`
}

// drawLate calls another package's counter after acquiring.
func drawLate(ctx context.Context, pool *pgxpool.Pool, f *store.Fenced, rs *redsync.Redsync) error {
	m := rs.NewMutex("balances")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	n, err := tokens.Draw(ctx, pool)
	if err != nil {
		return err
	}
	return f.UpdateBalance(ctx, store.TokenOf(n), store.UpdateBalanceParams{ID: 1}) // want `Fenced.UpdateBalance \(fencegen's fenced write\) is fenced with tokens.Draw\(\), which returns the query "SELECT nextval\('fence_token_seq'\)" \(line 215\), which is not a fencing token: it is drawn in a separate step after the redsync lock taken by Mutex.LockContext \(line 211\)`
}

// drawFirst calls it before waiting for the lock.
func drawFirst(ctx context.Context, pool *pgxpool.Pool, f *store.Fenced, rs *redsync.Redsync) error {
	n, err := tokens.Draw(ctx, pool)
	if err != nil {
		return err
	}
	m := rs.NewMutex("balances")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return f.UpdateBalance(ctx, store.TokenOf(n), store.UpdateBalanceParams{ID: 1})
}
