// Package worker writes under locks through fencegen's generated stores
// (fencegen/store, a copy of testdata/fencegen/golden/mysql,
// fencegen/pgstore, of examples/frozendemo/store, and fencegen/querydb, of
// testdata/fencegen/golden/postgres-queries): a call of a generated
// fenced method is a fenced write, and the lease table's methods are
// fencegen's machinery, whatever the generated code does inside.
package worker

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.etcd.io/etcd/client/v3/concurrency"

	"fencegen/pgstore"
	"fencegen/plugindb"
	"fencegen/querydb"
	"fencegen/store"
)

// fenced writes through the generated wrappers with the mutex's revision.
func fenced(ctx context.Context, db *sql.DB, s *concurrency.Session) error {
	m := concurrency.NewMutex(s, "/docs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	f := store.NewFenced(db)
	token := store.TokenOf(m.Header().Revision)
	if err := f.UpdateDoc(ctx, token, store.UpdateDocParams{ID: 1, Body: "b"}); err != nil {
		return err
	}
	if err := f.UpsertNote(ctx, token, store.UpsertNoteParams{ID: 2, Body: "n"}); err != nil {
		return err
	}
	return f.DeleteDoc(ctx, token, store.DeleteDocParams{ID: 3})
}

// mixed fences one write and not the other.
func mixed(ctx context.Context, db *sql.DB, rs *redsync.Redsync, token store.Token) error {
	m := rs.NewMutex("docs")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if err := store.NewFenced(db).UpdateDoc(ctx, token, store.UpdateDocParams{ID: 1, Body: "b"}); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE notes SET body = ? WHERE id = ?", "n", 2) // want `DB.ExecContext \(UPDATE notes\) writes to SQL database without a fencing token while the redsync lock`
	return err
}

// inTx writes through the generated wrappers over a transaction.
func inTx(ctx context.Context, db *sql.DB, s *concurrency.Session) error {
	m := concurrency.NewMutex(s, "/docs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := store.NewFenced(tx).UpdateDoc(ctx, store.TokenOf(m.Header().Revision), store.UpdateDocParams{ID: 1}); err != nil {
		return err
	}
	return tx.Commit()
}

// tenantLeases runs as the elected leader and takes one fencegen lease per
// tenant: acquiring, renewing and releasing the lease table's row are not
// the leader's data writes.
func tenantLeases(ctx context.Context, f *pgstore.Fenced, s *concurrency.Session, tenants []string) error {
	e := concurrency.NewElection(s, "/leader")
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	defer e.Resign(ctx)
	for _, name := range tenants {
		token, err := f.AcquireLease(ctx, name, "me", 10*time.Second)
		if err != nil {
			return err
		}
		if err := f.UpdateBalance(ctx, token, pgstore.UpdateBalanceParams{ID: 1, Amount: 100, WrittenBy: "me"}); err != nil {
			return err
		}
		if err := f.RenewLease(ctx, name, "me", token, 10*time.Second); err != nil {
			return err
		}
		if err := f.ReleaseLease(ctx, name, "me", token); err != nil {
			return err
		}
	}
	return nil
}

// ownLease takes fencegen's own lease (the lease table's AcquireLease): a
// write under it without the token is unfenced, one with it is fenced, and
// writes after ReleaseLease are under no lease.
func ownLease(ctx context.Context, f *pgstore.Fenced, pool *pgxpool.Pool) error {
	token, err := f.AcquireLease(ctx, "balances", "me", 10*time.Second)
	if err != nil {
		return err
	}
	if err := f.UpdateBalance(ctx, token, pgstore.UpdateBalanceParams{ID: 1, Amount: 100, WrittenBy: "me"}); err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, "UPDATE balances SET amount = 0 WHERE id = $1", 2); err != nil { // want `Pool.Exec \(UPDATE balances\) writes to PostgreSQL without a fencing token while`
		return err
	}
	if err := f.ReleaseLease(ctx, "balances", "me", token); err != nil {
		return err
	}
	_, err = pool.Exec(ctx, "UPDATE balances SET amount = 0 WHERE id = $1", 3)
	return err
}

// ownQueries runs the user's own sqlc queries that fencegen fenced (methods
// of Fenced that take the token) and one it was told to leave unfenced,
// with a reason.
func ownQueries(ctx context.Context, pool *pgxpool.Pool, s *concurrency.Session, owner string) error {
	m := concurrency.NewMutex(s, "/docs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	f, q := querydb.NewFenced(pool), querydb.New(pool)
	token := querydb.TokenOf(m.Header().Revision)
	if err := f.SetDocTitle(ctx, token, querydb.SetDocTitleParams{ID: 1, Title: "t"}); err != nil {
		return err
	}
	if _, err := f.PublishOwnerDocs(ctx, token, querydb.PublishOwnerDocsParams{Owner: owner}); err != nil {
		return err
	}
	if _, err := f.BumpCounter(ctx, token, querydb.BumpCounterParams{Name: "runs"}); err != nil {
		return err
	}
	if _, err := q.ResetDrafts(ctx); err != nil {
		return err
	}
	_, err := pool.Exec(ctx, "UPDATE docs SET status = 'draft' WHERE owner = $1", owner) // want `Pool.Exec \(UPDATE docs\) writes to PostgreSQL without a fencing token while the etcd lock`
	return err
}

// plugin writes through the package one `sqlc generate` wrote with fencegen
// as its plugin (fencegen/plugindb, a copy of
// testdata/fencegen/golden/sqlc-plugin): Fenced's methods are fenced writes,
// sqlc's own Queries methods of the same queries are not.
func plugin(ctx context.Context, pool *pgxpool.Pool, s *concurrency.Session) error {
	m := concurrency.NewMutex(s, "/docs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	f, q := plugindb.NewFenced(pool), plugindb.New(pool)
	token := plugindb.TokenOf(m.Header().Revision)
	if err := f.SetDocTitle(ctx, token, plugindb.SetDocTitleParams{ID: 1, Title: "t"}); err != nil {
		return err
	}
	if err := f.RemoveDoc(ctx, token, plugindb.RemoveDocParams{ID: 2}); err != nil {
		return err
	}
	if err := f.UpdateCounter(ctx, token, plugindb.UpdateCounterParams{Name: "runs", N: 1}); err != nil {
		return err
	}
	if _, err := q.GetDoc(ctx, 1); err != nil { // a read
		return err
	}
	// A write fencegen does not fence (an INSERT): the usual advice.
	if err := q.CreateDoc(ctx, plugindb.CreateDocParams{ID: 3, Owner: "o", Title: "t"}); err != nil { // want `Queries.CreateDoc \(DBTX.Exec \(INSERT docs\) at queries.sql.go:\d+\) writes to SQL database without a fencing token .*; fence it: add "AND fence < \$token"`
		return err
	}
	// sqlc's unfenced twin of a query fencegen fenced: the advice names Fenced.X.
	return q.SetDocTitle(ctx, plugindb.SetDocTitleParams{ID: 1, Title: "t"}) // want `Queries.SetDocTitle \(DBTX.Exec \(UPDATE docs\) at queries.sql.go:225\) writes to SQL database without a fencing token .*; fence it: call plugindb.Fenced.SetDocTitle, fencegen's fenced SetDocTitle, with the lease's token, and stop on its ErrStale`
}
