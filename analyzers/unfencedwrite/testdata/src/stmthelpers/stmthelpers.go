// Package stmthelpers is a payout worker whose data layer makes each
// statement from a table name and column lists (UPDATE `payouts` SET
// pending = :pending WHERE id = :id) in helpers of its own and sends it with
// sqlx's NamedExec, under the bsm/redislock locks its cron jobs take.
package stmthelpers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bsm/redislock"
	"github.com/jmoiron/sqlx"
)

var errStale = errors.New("payout changed meanwhile")

type Payout struct {
	ID      uint64 `db:"id"`
	Pending bool   `db:"pending"`
	Height  uint64 `db:"height"`
	Fence   int64  `db:"fence"`
}

// namedUpdate makes an UPDATE of cols of the row with the object's id.
func namedUpdate(table string, cols []string) string {
	sets := make([]string, len(cols))
	for i, col := range cols {
		sets[i] = fmt.Sprintf("%s = :%s", col, col)
	}
	return fmt.Sprintf("UPDATE `%s` SET %s WHERE id = :id", table, strings.Join(sets, ", "))
}

// namedConfirm makes the move of a pending row to confirmed: a row another
// run confirmed already matches nothing.
func namedConfirm(table string) string {
	return fmt.Sprintf("UPDATE `%s` SET state = 'confirmed', height = :height WHERE id = :id AND state = 'pending'", table)
}

// namedFenced sets the height of the row with the caller's fencing token:
// a stale holder's matches nothing, which only its count says.
func namedFenced(table string) string {
	return fmt.Sprintf("UPDATE `%s` SET height = :height, fence = :fence WHERE id = :id AND fence < :fence", table)
}

// namedSelect makes a read by id.
func namedSelect(table string) string {
	return fmt.Sprintf("SELECT * FROM `%s` WHERE id = :id", table)
}

func execUpdate(db *sqlx.DB, table string, cols []string, obj any) error {
	_, err := db.NamedExec(namedUpdate(table, cols), obj) // want `DB.NamedExec \(UPDATE <run-time name>\) writes to SQL database without a fencing token while the bsm/redislock lock taken by Client.Obtain \(line 59, in stmthelpers.finalize, under which every call of stmthelpers.execUpdate is made\) is held`
	return err
}

func finalize(ctx context.Context, locker *redislock.Client, db *sqlx.DB, p *Payout) error {
	lock, err := locker.Obtain(ctx, "cron:payout", 5*time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)

	p.Pending = false
	if err := execUpdate(db, "payouts", []string{"pending"}, p); err != nil {
		return err
	}
	if _, err := db.NamedExec(namedUpdate("payouts", []string{"height"}), p); err != nil { // want `NamedExec \(UPDATE payouts\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := db.NamedExec(namedSelect("payouts"), p); err != nil {
		return err
	}
	res, err := db.NamedExec(namedConfirm("payouts"), p)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

// confirmBlindly moves the payout too, which is safe by itself, then sets
// its height with its token and never learns that it lost.
func confirmBlindly(ctx context.Context, locker *redislock.Client, db *sqlx.DB, p *Payout) error {
	lock, err := locker.Obtain(ctx, "cron:confirm", time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	_, err = db.NamedExec(namedConfirm("payouts"), p) // the transition is safe by itself: a run that lost matches nothing
	if err != nil {
		return err
	}
	_, err = db.NamedExec(namedFenced("payouts"), p) // want `NamedExec \(UPDATE payouts\) is fenced but its rows-affected count is never read`
	return err
}
