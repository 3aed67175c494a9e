package freshkeys

import (
	"context"
	crand "crypto/rand"
	"math/rand"
	"time"

	gofrs "github.com/gofrs/uuid/v5"
	"github.com/oklog/ulid/v2"
	"github.com/rs/xid"
	"github.com/segmentio/ksuid"
)

// The other unique ID generators: an xid, a KSUID, a ULID from a random
// source and gofrs' UUIDs name new keys too; only the links are reported.

func (d *Dispatcher) lock(ctx context.Context) (func(), error) {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return nil, err
	}
	return func() { m.UnlockContext(ctx) }, nil
}

// EnqueueXID keys the job by an xid.
func (d *Dispatcher) EnqueueXID(ctx context.Context, body []byte) error {
	unlock, err := d.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	id := xid.New().String()
	d.rdb.Set(ctx, "job:"+id, body, time.Hour)
	return d.rdb.LPush(ctx, "jobs:queue", id).Err() // want `LPush writes to Redis without a fencing token`
}

// EnqueueKSUID keys the job by a KSUID, its error checked.
func (d *Dispatcher) EnqueueKSUID(ctx context.Context, body []byte) error {
	unlock, err := d.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	d.rdb.HSet(ctx, "job:"+ksuid.New().String(), "body", body)
	id, err := ksuid.NewRandom()
	if err != nil {
		return err
	}
	return d.rdb.Set(ctx, "job:"+id.String(), body, time.Hour).Err()
}

// EnqueueULID keys jobs by ULIDs: Make's, crypto/rand's, the default
// source's and a monotonic source over crypto/rand.
func (d *Dispatcher) EnqueueULID(ctx context.Context, body []byte) error {
	unlock, err := d.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	d.rdb.Set(ctx, "job:"+ulid.Make().String(), body, time.Hour)
	d.rdb.Set(ctx, "job:"+ulid.MustNew(ulid.Now(), crand.Reader).String(), body, time.Hour)
	d.rdb.Set(ctx, "job:"+ulid.MustNew(ulid.Now(), ulid.DefaultEntropy()).String(), body, time.Hour)
	entropy := ulid.Monotonic(crand.Reader, 0)
	id, err := ulid.New(ulid.Now(), entropy)
	if err != nil {
		return err
	}
	return d.rdb.Set(ctx, "job:"+id.String(), body, time.Hour).Err()
}

// EnqueueGofrs keys jobs by gofrs' random UUIDs.
func (d *Dispatcher) EnqueueGofrs(ctx context.Context, body []byte) error {
	unlock, err := d.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	d.rdb.Set(ctx, "job:"+gofrs.Must(gofrs.NewV4()).String(), body, time.Hour)
	id, err := gofrs.NewV7()
	if err != nil {
		return err
	}
	return d.rdb.Set(ctx, "job:"+id.String(), body, time.Hour).Err()
}

// AnnounceXID stores the xid before it writes under it: the next holder
// can read it back and write there first.
func (d *Dispatcher) AnnounceXID(ctx context.Context, body []byte) error {
	unlock, err := d.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	id := xid.New()
	d.rdb.Set(ctx, "jobs:current", id.String(), 0)                   // want `Set writes to Redis without a fencing token`
	return d.rdb.Set(ctx, "job:"+id.String(), body, time.Hour).Err() // want `Set writes to Redis without a fencing token`
}

// Parsed keys the job by a UUID or an xid parsed from the request: the
// caller, and so another holder, knows it.
func (d *Dispatcher) Parsed(ctx context.Context, raw string, body []byte) error {
	unlock, err := d.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	id := gofrs.Must(gofrs.FromString(raw))
	d.rdb.Set(ctx, "job:"+id.String(), body, time.Hour) // want `Set writes to Redis without a fencing token`
	x, err := xid.FromString(raw)
	if err != nil {
		return err
	}
	return d.rdb.Set(ctx, "job:"+x.String(), body, time.Hour).Err() // want `Set writes to Redis without a fencing token`
}

// Seeded keys jobs by ULIDs without real entropy: a nil source gives only
// the millisecond, and math/rand seeded with a constant draws the same
// bits in every process, so two holders name the same key.
func (d *Dispatcher) Seeded(ctx context.Context, body []byte) error {
	unlock, err := d.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	d.rdb.Set(ctx, "job:"+ulid.MustNew(ulid.Now(), nil).String(), body, time.Hour) // want `Set writes to Redis without a fencing token`
	fixed := rand.New(rand.NewSource(1))
	id := ulid.MustNew(ulid.Now(), ulid.Monotonic(fixed, 0))
	return d.rdb.Set(ctx, "job:"+id.String(), body, time.Hour).Err() // want `Set writes to Redis without a fencing token`
}
