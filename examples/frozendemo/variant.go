package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fencelint/fencelint/examples/frozendemo/store"
	"github.com/fencelint/fencelint/fencetest"
)

// variant is one way of guarding the balance with a lease.
type variant struct {
	name    string
	title   string
	fenced  bool   // whether the store should refuse the frozen worker
	guard   string // how the write is guarded, for the summary
	service string // the lock service: etcd, redis or postgres
	work    fencetest.Func
	job     *fencetest.Job
}

// register makes v's worker runnable as a process.
func register(v variant) *variant {
	v.job = fencetest.Register(fencetest.Job{
		Name:    v.name,
		Work:    v.work,
		IsStale: func(err error) bool { return errors.Is(err, store.ErrStale) },
	})
	return &v
}

// allVariants lists the variants in the order the demo tells the story.
func allVariants() []*variant {
	return []*variant{etcdUnfenced, redsyncUnfenced, etcdFenced, redisLateToken, leaseTable}
}

func variantNamed(name string) (*variant, error) {
	var names []string
	for _, v := range allVariants() {
		if v.name == name {
			return v, nil
		}
		names = append(names, v.name)
	}
	return nil, fmt.Errorf("no variant %q; the variants are %q", name, names)
}

// balance is the balances row at the end of a round.
type balance struct {
	ID        int64
	Amount    int64
	WrittenBy string
	Fence     int64
}

func (b balance) String() string {
	return fmt.Sprintf("balances id=%d: amount=%d written_by=%s fence=%d", b.ID, b.Amount, b.WrittenBy, b.Fence)
}

// round is one play of a variant's scenario.
type round struct {
	pause time.Duration // how long A is frozen at least
	ttl   time.Duration // how long a lease lasts
}

// outcome is what a round did.
type outcome struct {
	res   *fencetest.Result
	final balance
}

// lostB says B's write was lost.
func (o outcome) lostB() bool { return o.res.StaleWriteAccepted }

// rows hands out a fresh row and lock per round, so rounds can run at once.
var rows atomic.Int64

// roundSetup is a fresh balances row and lock for one round, and the
// options that run the round on them.
type roundSetup struct {
	opts  fencetest.Options
	final func(context.Context) (balance, error) // reads the row
	close func()
}

// setUp prepares a round of v: a fresh row, a lock key of its own, and the
// workers' environment.
func (s *services) setUp(ctx context.Context, v *variant, r round) (*roundSetup, error) {
	id := rows.Add(1)
	lock := fmt.Sprintf("/frozendemo/%s/%d", v.name, id)
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "INSERT INTO balances (id, amount, written_by, fence) VALUES ($1, 0, 'nobody', 0)", id); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	final := func(ctx context.Context) (balance, error) {
		b := balance{ID: id}
		err := conn.QueryRow(ctx, "SELECT amount, written_by, fence FROM balances WHERE id = $1", id).
			Scan(&b.Amount, &b.WrittenBy, &b.Fence)
		return b, err
	}
	return &roundSetup{
		opts: fencetest.Options{
			Pause: r.pause,
			Env: append(s.env(),
				envLock+"="+lock,
				envRow+"="+strconv.FormatInt(id, 10),
				envTTL+"="+r.ttl.String()),
			Winner: func(ctx context.Context) (string, error) {
				b, err := final(ctx)
				return b.WrittenBy, err
			},
		},
		final: final,
		close: func() { conn.Close(context.Background()) },
	}, nil
}

// play runs one round of v and reads the row back.
func (s *services) play(ctx context.Context, v *variant, r round) (outcome, error) {
	rs, err := s.setUp(ctx, v, r)
	if err != nil {
		return outcome{}, err
	}
	defer rs.close()
	res, err := v.job.Play(ctx, rs.opts)
	o := outcome{res: res}
	if err != nil {
		return o, err
	}
	o.final, err = rs.final(ctx)
	return o, err
}
