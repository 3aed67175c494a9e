// Package deadline keeps its own lease record and compares the clock with
// the lease's deadline before writing.
package deadline

import (
	"context"
	"database/sql"
	"time"
)

// Lease is a lease row read from the database.
type Lease struct {
	Holder    string
	ExpiresAt time.Time
}

type worker struct {
	db     *sql.DB
	lease  *Lease
	expiry time.Time
}

// before compares now with the lease's deadline.
func (w *worker) before(ctx context.Context) {
	if time.Now().Before(w.lease.ExpiresAt) { // want `time.Now\(\).Before\(w.lease.ExpiresAt\) only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE payouts\) at line 26`
		w.db.ExecContext(ctx, "UPDATE payouts SET paid = true WHERE run = 4")
	}
}

// until keeps a margin, and returns early when it is too thin.
func (w *worker) until(ctx context.Context) error {
	if time.Until(w.expiry) < time.Second { // want `time.Until\(w.expiry\) only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(INSERT payouts\)`
		return nil
	}
	_, err := w.db.ExecContext(ctx, "INSERT INTO payouts (run) VALUES (5)")
	return err
}

// after reads the comparison the other way round.
func (w *worker) after(ctx context.Context, now time.Time) {
	if w.lease.ExpiresAt.After(now) { // want `w.lease.ExpiresAt.After\(now\) only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(DELETE payouts\)`
		w.db.ExecContext(ctx, "DELETE FROM payouts WHERE run = 3")
	}
}

// computed derives the deadline from when the lease was taken.
func (w *worker) computed(ctx context.Context, acquired time.Time, ttl time.Duration) {
	if time.Since(acquired) < ttl { // want `time.Since\(acquired\) only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE payouts\)`
		w.db.ExecContext(ctx, "UPDATE payouts SET paid = false WHERE run = 6")
	}
}

// retry loops until a deadline that has nothing to do with a lease.
func (w *worker) retry(ctx context.Context) error {
	deadline := time.Now().Add(5 * time.Second)
	var err error
	for time.Now().Before(deadline) {
		if _, err = w.db.ExecContext(ctx, "UPDATE payouts SET tries = tries + 1 WHERE run = 4"); err == nil {
			return nil
		}
	}
	return err
}

// timeout compares with a request deadline: not a lease.
func (w *worker) timeout(ctx context.Context, requestDeadline time.Time) {
	if time.Now().Before(requestDeadline) {
		w.db.ExecContext(ctx, "UPDATE requests SET state = 'served' WHERE id = 2")
	}
}

// sleep waits half the lease: the deadline decides no branch.
func (w *worker) sleep() {
	time.Sleep(time.Until(w.lease.ExpiresAt) / 2)
}

// expired cleans up after the lease ran out: the write is on the other side.
func (w *worker) expired(ctx context.Context) {
	if time.Now().After(w.lease.ExpiresAt) {
		w.db.ExecContext(ctx, "UPDATE payouts SET owner = NULL WHERE run = 4")
	}
}

// fenced writes with the lease's token as fence: fine.
func (w *worker) fenced(ctx context.Context, token int64) (bool, error) {
	if !time.Now().Before(w.lease.ExpiresAt) {
		return false, nil
	}
	res, err := w.db.ExecContext(ctx, "UPDATE payouts SET paid = true, fence = $1 WHERE run = 4 AND fence < $1", token)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// clock is an injectable clock, as k8s.io/utils/clock has.
type clock interface{ Now() time.Time }

// injected reads the time from an injected clock.
func (w *worker) injected(ctx context.Context, c clock) {
	if c.Now().Before(w.lease.ExpiresAt) { // want `c.Now\(\).Before\(w.lease.ExpiresAt\) only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE payouts\)`
		w.db.ExecContext(ctx, "UPDATE payouts SET paid = true WHERE run = 8")
	}
}

// backoff compares with a backoff deadline: "blocked" and "clock" hold
// the letters of "lock" but are no lock.
func (w *worker) backoff(ctx context.Context, blockedUntil, clockSkewDeadline time.Time) {
	if time.Now().After(blockedUntil) && time.Now().Before(clockSkewDeadline) {
		w.db.ExecContext(ctx, "UPDATE payouts SET tries = 0 WHERE run = 8")
	}
}

// Locker is the team's lock service.
type Locker struct{}

// Acquire takes the lock and returns when its lease ends.
//
//fencelint:acquire
func (Locker) Acquire(ctx context.Context, name string) (time.Time, error) {
	return time.Now().Add(10 * time.Second), nil
}

// Heartbeat renews the lease and returns its new end.
//
//fencelint:renew
func (Locker) Heartbeat(ctx context.Context, name string) (time.Time, error) {
	return time.Now().Add(10 * time.Second), nil
}

// acquiredDeadline compares with the deadline Acquire returned.
func (w *worker) acquiredDeadline(ctx context.Context, l Locker) error {
	deadline, err := l.Acquire(ctx, "payouts")
	if err != nil {
		return err
	}
	if time.Until(deadline) > 0 { // want `time.Until\(deadline\) only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE payouts\)`
		_, err = w.db.ExecContext(ctx, "UPDATE payouts SET paid = true WHERE run = 10")
	}
	return err
}

// computedDeadline computes the deadline right after renewing.
func (w *worker) computedDeadline(ctx context.Context, l Locker) error {
	if _, err := l.Heartbeat(ctx, "payouts"); err != nil {
		return err
	}
	deadline := time.Now().Add(10 * time.Second)
	w.prepare()
	if !time.Now().Before(deadline) { // want `time.Now\(\).Before\(deadline\) only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(DELETE payouts\)`
		return nil
	}
	_, err := w.db.ExecContext(ctx, "DELETE FROM payouts WHERE run = 10")
	return err
}

func (w *worker) prepare() {}

// withMargin moves the clock forward by a safety margin first.
func (w *worker) withMargin(ctx context.Context) {
	if time.Now().Add(time.Second).Before(w.lease.ExpiresAt) { // want `time.Now\(\).Add\(time.Second\).Before\(w.lease.ExpiresAt\) only tells`
		w.db.ExecContext(ctx, "UPDATE payouts SET paid = true WHERE run = 11")
	}
}

// Row is a lease row with its holder and its deadline in Unix
// milliseconds.
type Row struct {
	Holder      string
	ExpiresAtMs int64
	Attempts    int64
}

// unixMillis compares the clock in milliseconds with the row's deadline.
func (w *worker) unixMillis(ctx context.Context, r Row) error {
	if time.Now().UnixMilli() >= r.ExpiresAtMs { // want `time.Now\(\).UnixMilli\(\) >= r.ExpiresAtMs only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE payouts\)`
		return nil
	}
	_, err := w.db.ExecContext(ctx, "UPDATE payouts SET paid = true WHERE run = 12")
	return err
}

// unixAttempts compares something else with the clock: no lease.
func (w *worker) unixAttempts(ctx context.Context, r Row) {
	if time.Now().Unix() > r.Attempts {
		w.db.ExecContext(ctx, "UPDATE payouts SET tries = 0 WHERE run = 12")
	}
}

// unseenWhere guards a write whose WHERE clause is built at run time: it
// may be fenced, so heldcheck stays quiet (unfencedwrite says it could not
// see the clause).
func (w *worker) unseenWhere(ctx context.Context, cond string) {
	if time.Now().Before(w.lease.ExpiresAt) {
		w.db.ExecContext(ctx, "UPDATE payouts SET paid = true WHERE "+cond)
	}
}

// seenWhere is its twin with the clause in sight.
func (w *worker) seenWhere(ctx context.Context) {
	if time.Now().Before(w.lease.ExpiresAt) { // want `time.Now\(\).Before\(w.lease.ExpiresAt\) only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE payouts\)`
		w.db.ExecContext(ctx, "UPDATE payouts SET paid = true WHERE run = 7")
	}
}

// Payment is a business record with a deadline of its own: no lease.
type Payment struct {
	Sn        string
	Status    int
	ExpiredAt time.Time
}

// confirm refuses a payment whose own deadline passed: the clock compared
// with a record's deadline says whether the record is still good, not
// whether a lease is held.
func (w *worker) confirm(ctx context.Context, p *Payment) error {
	if time.Now().After(p.ExpiredAt) {
		return nil
	}
	_, err := w.db.ExecContext(ctx, "UPDATE payments SET status = 2 WHERE sn = $1", p.Sn)
	return err
}

// Coupon is another: a validity window and a TTL in seconds.
type Coupon struct {
	Code          string
	ValidUntil    time.Time
	ExpiresAtUnix int64
}

// redeem checks the coupon's window in both forms before using it.
func (w *worker) redeem(ctx context.Context, c Coupon) {
	if time.Now().Before(c.ValidUntil) && time.Now().Unix() < c.ExpiresAtUnix {
		w.db.ExecContext(ctx, "UPDATE coupons SET used = true WHERE code = $1", c.Code)
	}
}

// Claim is a job row a worker claims for a while: its deadline is named
// for the claim's holder, which makes it a lease's.
type Claim struct {
	Job        int64
	LockedBy   string
	ValidUntil time.Time
}

// finish checks its claim before writing the result.
func (w *worker) finish(ctx context.Context, c *Claim) {
	if time.Now().Before(c.ValidUntil) { // want `time.Now\(\).Before\(c.ValidUntil\) only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE jobs\)`
		w.db.ExecContext(ctx, "UPDATE jobs SET done = true WHERE id = $1", c.Job)
	}
}

// aliased copies the lease's deadline into a local first.
func (w *worker) aliased(ctx context.Context, r Row) {
	end := w.lease.ExpiresAt
	if time.Now().Before(end) { // want `time.Now\(\).Before\(end\) only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE payouts\)`
		w.db.ExecContext(ctx, "UPDATE payouts SET paid = true WHERE run = 13")
	}
	ms := r.ExpiresAtMs
	if time.Now().UnixMilli() < ms { // want `time.Now\(\).UnixMilli\(\) < ms only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE payouts\)`
		w.db.ExecContext(ctx, "UPDATE payouts SET paid = true WHERE run = 14")
	}
}

// aliasedRecord copies a business record's deadline into a local: still
// no lease.
func (w *worker) aliasedRecord(ctx context.Context, p *Payment) {
	end := p.ExpiredAt
	if time.Now().Before(end) {
		w.db.ExecContext(ctx, "UPDATE payments SET status = 3 WHERE sn = $1", p.Sn)
	}
}

// Configuration gathers every subsystem's settings, the leader election's
// among them: a field named as a deadline is no lease's for that.
type Configuration struct {
	ListenAddress             string
	MySQLTopologyUser         string
	MySQLTopologyPassword     string
	MySQLOrchestratorHost     string
	MySQLOrchestratorPort     uint
	MySQLOrchestratorDatabase string
	DefaultInstancePort       int
	SlaveLagQuery             string
	DiscoveryMaxConcurrency   uint
	DiscoveryQueueCapacity    uint
	InstancePollSeconds       uint
	UnseenInstanceForgetHours uint
	SnapshotTopologiesHours   uint
	InstanceBulkOperations    uint
	HostnameResolveMethod     string
	ExpiryHostnameResolves    uint
	RejectHostnameResolve     string
	ReasonableLagSeconds      int
	AuditLogFile              string
	AuditToSyslog             bool
	BufferInstanceWrites      bool
	RaftEnabled               bool
	RaftLeaderTimeoutSeconds  int
	LeaderElectionSeconds     int
	PoolExpiryMinutes         int
}

var config = &Configuration{PoolExpiryMinutes: 60}

// submitPool drops a pool submission that is too old to matter: its age
// is the submission's, no lease's.
func (w *worker) submitPool(ctx context.Context, createdAt time.Time, pool string) {
	if createdAt.Add(time.Duration(config.PoolExpiryMinutes) * time.Minute).Before(time.Now()) {
		return
	}
	w.db.ExecContext(ctx, "DELETE FROM instance_pool WHERE pool = $1", pool)
}

// extendLock validates the lock time its caller asks for, then claims the
// row with it: the comparison checks the new deadline the write stores,
// not a lease already held.
func (w *worker) extendLock(ctx context.Context, id int64, newSyncLockTime int64) error {
	if newSyncLockTime < time.Now().Add(5*time.Minute).UnixMicro() {
		return nil
	}
	_, err := w.db.ExecContext(ctx, "UPDATE jobs SET locked_till = $1 WHERE id = $2", newSyncLockTime, id)
	return err
}

// finishBefore compares the clock with the lock time it holds and then
// writes something else: a held check.
func (w *worker) finishBefore(ctx context.Context, id int64, lockedTill int64) error {
	if time.Now().UnixMicro() >= lockedTill { // want `time.Now\(\).UnixMicro\(\) >= lockedTill only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE jobs\)`
		return nil
	}
	_, err := w.db.ExecContext(ctx, "UPDATE jobs SET done = true WHERE id = $1", id)
	return err
}
