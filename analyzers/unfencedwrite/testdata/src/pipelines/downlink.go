// Package pipelines schedules device downlinks as a slice of steps that a
// runner calls in order, stopping at the first error: a step that takes a
// SET NX lock and returns holding it leaves the lock held for the steps
// after it.
package pipelines

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var errAbort = errors.New("abort")

type downlink struct {
	ctx     context.Context
	rdb     *redis.Client
	db      *sql.DB
	conn    *sql.Conn
	device  string
	classC  bool
	session string
	gateway string
}

// forClassC runs its steps only for class-C devices.
func forClassC(steps ...func(*downlink) error) func(*downlink) error {
	return func(d *downlink) error {
		if !d.classC {
			return nil
		}
		for _, s := range steps {
			if err := s(d); err != nil {
				return err
			}
		}
		return nil
	}
}

var scheduleSteps = []func(*downlink) error{
	recordAttempt,
	forClassC(lockDevice),
	loadSession,
	forClassC(lockGateway),
	saveSession,
	markQueued,
}

// Schedule runs the steps; a device another server has locked aborts.
func Schedule(ctx context.Context, rdb *redis.Client, db *sql.DB, device string) error {
	d := &downlink{ctx: ctx, rdb: rdb, db: db, device: device, classC: true}
	for _, step := range scheduleSteps {
		if err := step(d); err != nil {
			if err == errAbort {
				return nil
			}
			return err
		}
	}
	return nil
}

func lockKey(kind, id string) string { return fmt.Sprintf("lock:%s:%s", kind, id) }

// lockDevice takes the device's downlink lock and keeps it: the steps
// after it run under it.
func lockDevice(d *downlink) error {
	ok, err := d.rdb.SetNX(d.ctx, lockKey("device", d.device), "1", 5*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errAbort
	}
	return nil
}

// lockGateway takes the gateway's lock, and gives the device's lock back
// when the gateway is busy: that Del, on the path that fails, is the
// device lock's release, not a write a lock guards, so lockGateway is an
// acquire its caller holds the gateway lock by.
func lockGateway(d *downlink) error {
	ok, err := d.rdb.SetNX(d.ctx, lockKey("gateway", d.gateway), "1", time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		d.rdb.Del(d.ctx, lockKey("device", d.device))
		return errAbort
	}
	return nil
}

// recordAttempt runs before the lock is taken.
func recordAttempt(d *downlink) error {
	_, err := d.db.ExecContext(d.ctx, `UPDATE devices SET attempts = attempts + 1 WHERE id = $1`, d.device)
	return err
}

func loadSession(d *downlink) error {
	return d.db.QueryRowContext(d.ctx, `SELECT session FROM devices WHERE id = $1`, d.device).Scan(&d.session)
}

// saveSession writes the device's session next to the lock lockDevice
// took: a server paused past the lock's 5 s saves a stale session over the
// next holder's.
func saveSession(d *downlink) error {
	return d.rdb.Set(d.ctx, "session:"+d.device, d.session, 0).Err() // want `Set writes to Redis without a fencing token while the Redis lock that lockGateway takes, an earlier step of scheduleSteps \(line 49\) is held`
}

// markQueued writes to another store than the lock's, through the handle
// the runner was given (the scheduler's transaction, which holds the rows
// it changes): a lease carried by a pipeline guards only the lock's own
// store.
func markQueued(d *downlink) error {
	_, err := d.db.ExecContext(d.ctx, `UPDATE device_queue SET pending = true WHERE device = $1`, d.device)
	return err
}

// The same steps, but the lock step releases before the steps after it
// run (a hard negative: nothing is held there).

var resendSteps = []func(*downlink) error{
	checkDevice,
	markResent,
}

// Resend runs its steps from a local copy of the pipeline too.
func Resend(ctx context.Context, rdb *redis.Client, db *sql.DB, device string) error {
	d := &downlink{ctx: ctx, rdb: rdb, db: db, device: device}
	for _, step := range resendSteps {
		if err := step(d); err != nil {
			return err
		}
	}
	return nil
}

// checkDevice locks and unlocks within the step.
func checkDevice(d *downlink) error {
	ok, err := d.rdb.SetNX(d.ctx, "lock:resend:"+d.device, "1", 5*time.Second).Result()
	if err != nil || !ok {
		return errAbort
	}
	defer d.rdb.Del(d.ctx, "lock:resend:"+d.device)
	return d.db.QueryRowContext(d.ctx, `SELECT session FROM devices WHERE id = $1`, d.device).Scan(&d.session)
}

func markResent(d *downlink) error {
	_, err := d.db.ExecContext(d.ctx, `UPDATE devices SET resent = now() WHERE id = $1`, d.device)
	return err
}

// A local pipeline whose advisory lock a later step gives up before the
// last write: only the step between them runs under it.
func Expire(ctx context.Context, conn *sql.Conn, db *sql.DB, device string) error {
	d := &downlink{ctx: ctx, conn: conn, db: db, device: device}
	steps := []func(*downlink) error{lockExpiry, touchExpiry, unlockExpiry, logExpiry}
	for _, step := range steps {
		if err := step(d); err != nil {
			return err
		}
	}
	return nil
}

func lockExpiry(d *downlink) error {
	_, err := d.conn.ExecContext(d.ctx, `SELECT pg_advisory_lock(7)`)
	return err
}

func touchExpiry(d *downlink) error {
	_, err := d.db.ExecContext(d.ctx, `UPDATE devices SET expires = now() WHERE id = $1`, d.device) // want `ExecContext \(UPDATE devices\) writes to SQL database without a fencing token while the PostgreSQL lock that lockExpiry takes, an earlier step of the steps run by Expire \(line 163\) is held`
	return err
}

func unlockExpiry(d *downlink) error {
	_, err := d.conn.ExecContext(d.ctx, `SELECT pg_advisory_unlock(7)`)
	return err
}

func logExpiry(d *downlink) error {
	_, err := d.db.ExecContext(d.ctx, `INSERT INTO expiry_log (device) VALUES ($1)`, d.device)
	return err
}
