// Package ledger is reduced from blnk: an inflight transaction is
// committed or voided under a hand-rolled SET NX lock on its ID, and the
// follow-up work is queued in an outbox under a unique text key built from
// that same ID. Whoever holds the lock builds the same key, so a stale
// holder's second outbox row fails on the key: no fence is needed. A key
// built from anything else (a fresh UUID, a reference the caller passes, a
// value read under the lock), an upsert that overwrites on conflict, or a
// key column that may be NULL are still reported.
package ledger

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"leasekeyinserts/database"
	"leasekeyinserts/redlock"
)

type DataSource interface {
	InsertOutbox(ctx context.Context, o *database.Outbox) error
	UpsertOutbox(ctx context.Context, o *database.Outbox) error
	RecordTransaction(ctx context.Context, reference string, amount int64) error
	AddNote(ctx context.Context, key, body string) error
}

type Ledger struct {
	rdb *redis.Client
	db  *sql.DB
	ds  DataSource
}

func New(rdb *redis.Client, db *sql.DB, ds DataSource) *Ledger {
	return &Ledger{rdb: rdb, db: db, ds: ds}
}

// Commit queues the shadow commit under "<id>_shadow_commit", built from
// the ID the lock key "inflight-commit:<id>" is built from.
func (l *Ledger) Commit(ctx context.Context, id string) error {
	lockKey := fmt.Sprintf("inflight-commit:%s", id)
	locker := redlock.NewLocker(l.rdb, lockKey, uuid.NewString())
	if err := locker.Lock(ctx, time.Minute); err != nil {
		return err
	}
	defer locker.Unlock(ctx)
	return l.queueWork(ctx, id, "shadow_commit")
}

func (l *Ledger) queueWork(ctx context.Context, parentID, kind string) error {
	o := &database.Outbox{
		WorkID:  fmt.Sprintf("%s_%s", parentID, kind),
		Kind:    kind,
		Payload: fmt.Appendf(nil, `{"parent":"%s"}`, parentID),
	}
	if err := l.ds.InsertOutbox(ctx, o); err != nil {
		return fmt.Errorf("queue %s: %w", kind, err)
	}
	return nil
}

// Void waits for the lock and inserts in the region, the key joined from
// the lock's key itself.
func (l *Ledger) Void(ctx context.Context, id string) error {
	lockKey := "inflight-void:" + id
	locker := redlock.NewLocker(l.rdb, lockKey, uuid.NewString())
	if err := locker.WaitLock(ctx, time.Minute, time.Second); err != nil {
		return err
	}
	defer locker.Unlock(ctx)
	return l.ds.InsertOutbox(ctx, &database.Outbox{WorkID: strings.Join([]string{lockKey, "void"}, "/"), Kind: "void"})
}

// Refund records the refund under "<id>_refund": the lock key is
// "refund:<id>".
func (l *Ledger) Refund(ctx context.Context, id string, amount int64) error {
	locker := redlock.NewLocker(l.rdb, "refund:"+id, uuid.NewString())
	if err := locker.Lock(ctx, time.Minute); err != nil {
		return err
	}
	defer locker.Unlock(ctx)
	return l.ds.RecordTransaction(ctx, id+"_refund", amount)
}

// Settle takes SET NX itself and inserts the batch's row directly.
func (l *Ledger) Settle(ctx context.Context, batch string) error {
	ok, err := l.rdb.SetNX(ctx, "settle:"+batch, "1", time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer l.rdb.Del(ctx, "settle:"+batch)
	_, err = l.db.ExecContext(ctx, `INSERT INTO outbox (work_id, kind, payload) VALUES ($1, 'settle', '{}')`, "settle_"+batch)
	return err
}

// Retry queues under a key with a fresh UUID in it: every holder's row is
// new, so a stale holder queues the work twice.
func (l *Ledger) Retry(ctx context.Context, id string) error {
	locker := redlock.NewLocker(l.rdb, "retry:"+id, uuid.NewString())
	if err := locker.Lock(ctx, time.Minute); err != nil {
		return err
	}
	defer locker.Unlock(ctx)
	return l.queueWork(ctx, id, uuid.NewString()) // want `Ledger.queueWork \(.*INSERT outbox.*\) writes to SQL database without a fencing token`
}

// RefundAs records the refund under a reference the caller passes, which
// the lock key is not built from: another request's reference is another
// row.
func (l *Ledger) RefundAs(ctx context.Context, id, reference string, amount int64) error {
	locker := redlock.NewLocker(l.rdb, "refund:"+id, uuid.NewString())
	if err := locker.Lock(ctx, time.Minute); err != nil {
		return err
	}
	defer locker.Unlock(ctx)
	return l.ds.RecordTransaction(ctx, reference+"_refund", amount) // want `RecordTransaction .*without a fencing token`
}

// CommitChild queues under the parent read under the lock: a value read,
// which may differ between holders.
func (l *Ledger) CommitChild(ctx context.Context, id string) error {
	locker := redlock.NewLocker(l.rdb, "inflight-commit:"+id, uuid.NewString())
	if err := locker.Lock(ctx, time.Minute); err != nil {
		return err
	}
	defer locker.Unlock(ctx)
	parent, err := l.rdb.Get(ctx, "parent:"+id).Result()
	if err != nil {
		return err
	}
	return l.queueWork(ctx, parent, "shadow_commit") // want `Ledger.queueWork .*without a fencing token`
}

// Resync overwrites the outbox row of the ID: ON CONFLICT DO UPDATE is no
// create-if-absent, whatever the key.
func (l *Ledger) Resync(ctx context.Context, id string) error {
	locker := redlock.NewLocker(l.rdb, "inflight-commit:"+id, uuid.NewString())
	if err := locker.Lock(ctx, time.Minute); err != nil {
		return err
	}
	defer locker.Unlock(ctx)
	return l.ds.UpsertOutbox(ctx, &database.Outbox{WorkID: id + "_sync", Kind: "sync"}) // want `UpsertOutbox .*overwrites the next holder's data`
}

// Annotate inserts under a unique key that may be NULL.
func (l *Ledger) Annotate(ctx context.Context, id, body string) error {
	locker := redlock.NewLocker(l.rdb, "note:"+id, uuid.NewString())
	if err := locker.Lock(ctx, time.Minute); err != nil {
		return err
	}
	defer locker.Unlock(ctx)
	return l.ds.AddNote(ctx, id+"_note", body) // want `AddNote .*without a fencing token`
}

// CommitOther takes the lock of one ID and queues work for another: the
// next holder of this lock may queue a different key.
func (l *Ledger) CommitOther(ctx context.Context, id, other string) error {
	locker := redlock.NewLocker(l.rdb, "inflight-commit:"+id, uuid.NewString())
	if err := locker.Lock(ctx, time.Minute); err != nil {
		return err
	}
	defer locker.Unlock(ctx)
	return l.queueWork(ctx, other, "shadow_commit") // want `Ledger.queueWork .*without a fencing token`
}

// Close takes the batch's lock through a wrapper that is handed the key
// and queues the batch's close under a key built from the same batch ID.
func (l *Ledger) Close(ctx context.Context, batch string) error {
	if err := redlock.Acquire(ctx, l.rdb, "batch:"+batch, time.Minute); err != nil {
		return err
	}
	return l.queueWork(ctx, batch, "close")
}

// CloseFor queues under the batch's owner, which the lock key is not
// built from.
func (l *Ledger) CloseFor(ctx context.Context, batch, owner string) error {
	if err := redlock.Acquire(ctx, l.rdb, "batch:"+batch, time.Minute); err != nil {
		return err
	}
	return l.queueWork(ctx, owner, "close") // want `Ledger.queueWork .*without a fencing token`
}
