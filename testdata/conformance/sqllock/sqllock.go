// Package sqllock holds workers that serialize through the database itself:
// PostgreSQL advisory locks (database/sql and pgx), MySQL GET_LOCK, and a
// lease row that hands out the fencing token in the acquiring statement.
package sqllock

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	_ "github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

const payoutsLock = 42

var errStale = errors.New("a newer lease holder wrote first")

// PayoutsOnPool takes a session advisory lock through *sql.DB: the lock
// sits on whichever pooled connection ran it, and the UPDATE may run on
// another connection after that session died.
func PayoutsOnPool(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, payoutsLock); err != nil {
		return err
	}
	defer db.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, payoutsLock)
	_, err := db.ExecContext(ctx, `UPDATE payouts SET state = 'sent' WHERE state = 'approved'`) // want unfencedwrite:"without a fencing token"
	return err
}

// PayoutsOnConn pins one session and writes through it: the lock lives
// exactly as long as that session, and once the session is gone the write
// fails with it, so the session itself fences the write.
func PayoutsOnConn(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var got bool
	if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1)`, payoutsLock).Scan(&got); err != nil {
		return err
	}
	if !got {
		return nil
	}
	defer conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1)`, payoutsLock)
	_, err = conn.ExecContext(ctx, `UPDATE payouts SET state = 'sent' WHERE state = 'approved'`)
	return err
}

// PayoutsInTx takes a transaction-level lock: the writes commit only if
// the transaction that holds the lock commits.
func PayoutsInTx(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, payoutsLock); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE payouts SET state = 'sent' WHERE state = 'approved'`); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO payout_runs (ran_at) VALUES (now())`); err != nil {
		return err
	}
	return tx.Commit()
}

// PayoutsPgxPool takes a session lock through a pgx pool.
func PayoutsPgxPool(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, payoutsLock); err != nil {
		return err
	}
	defer conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1)`, payoutsLock)
	_, err = pool.Exec(ctx, `UPDATE payouts SET state = 'sent' WHERE state = 'approved'`) // want unfencedwrite:"without a fencing token"
	return err
}

// PayoutsPgxTx takes a transaction-level lock in a pgx transaction.
func PayoutsPgxTx(ctx context.Context, conn *pgx.Conn) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, payoutsLock); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE payouts SET state = 'sent' WHERE state = 'approved'`)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		return nil
	})
}

// ExportOnMySQL takes a MySQL named lock on a pinned connection and writes
// through the same connection: fenced by the session, as above.
func ExportOnMySQL(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var got sql.NullInt64
	if err := conn.QueryRowContext(ctx, `SELECT GET_LOCK('exports', 10)`).Scan(&got); err != nil {
		return err
	}
	if !got.Valid || got.Int64 != 1 {
		return errors.New("export: lock busy")
	}
	defer conn.ExecContext(context.Background(), `SELECT RELEASE_LOCK('exports')`)
	_, err = conn.ExecContext(ctx, `UPDATE exports SET state = 'done' WHERE state = 'running'`)
	return err
}

// acquireLease takes the named lease row if it is free or expired, and
// hands out the next fence in the same statement.
//
//fencelint:acquire
//fencelint:token
func acquireLease(ctx context.Context, db *sql.DB, name, holder string, ttl time.Duration) (int64, error) {
	var fence int64
	err := db.QueryRowContext(ctx, `
		UPDATE leases
		SET holder = $2, fence = fence + 1, expires_at = now() + make_interval(secs => $3)
		WHERE name = $1 AND (expires_at < now() OR holder = $2)
		RETURNING fence`, name, holder, ttl.Seconds()).Scan(&fence)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("lease %s is held", name)
	}
	return fence, err
}

// SettleFenced writes with the lease's fence and checks the row count: a
// holder paused past its lease matches no row.
func SettleFenced(ctx context.Context, db *sql.DB, account string, amount int64) error {
	fence, err := acquireLease(ctx, db, "settle:"+account, "worker-1", 30*time.Second)
	if err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, `
		UPDATE balances SET amount = amount + $2, fence = $3
		WHERE account = $1 AND fence <= $3`, account, amount, fence)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n != 1 {
		return errStale
	}
	return nil
}

// SettleUpsert fences an upsert: the conflict update applies only to an
// older fence.
func SettleUpsert(ctx context.Context, db *sql.DB, account string, amount int64) error {
	fence, err := acquireLease(ctx, db, "settle:"+account, "worker-1", 30*time.Second)
	if err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, `
		INSERT INTO balances (account, amount, fence) VALUES ($1, $2, $3)
		ON CONFLICT (account) DO UPDATE SET amount = EXCLUDED.amount, fence = EXCLUDED.fence
		WHERE balances.fence <= EXCLUDED.fence`, account, amount, fence)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errStale
	}
	return nil
}

// SettleIgnoringRows has the predicate but never looks at the row count,
// so a rejected stale write looks like success.
func SettleIgnoringRows(ctx context.Context, db *sql.DB, account string, amount int64) error {
	fence, err := acquireLease(ctx, db, "settle:"+account, "worker-1", 30*time.Second)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE balances SET amount = amount + $2, fence = $3 WHERE account = $1 AND fence <= $3`, account, amount, fence) // want unfencedwrite:"rows-affected count is never read"
	return err
}

// SettleNamedArgs fences a pgx write with named arguments.
func SettleNamedArgs(ctx context.Context, db *sql.DB, conn *pgx.Conn, account string, amount int64) error {
	fence, err := acquireLease(ctx, db, "settle:"+account, "worker-1", 30*time.Second)
	if err != nil {
		return err
	}
	tag, err := conn.Exec(ctx, `UPDATE balances SET amount = amount + @amount, fence = @fence WHERE account = @account AND fence <= @fence`,
		pgx.NamedArgs{"account": account, "amount": amount, "fence": fence})
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		return errStale
	}
	return nil
}

// ReadOnly holds the lease to read a consistent total.
func ReadOnly(ctx context.Context, db *sql.DB) (int64, error) {
	if _, err := acquireLease(ctx, db, "report", "worker-1", 10*time.Second); err != nil {
		return 0, err
	}
	var total int64
	err := db.QueryRowContext(ctx, `SELECT coalesce(sum(amount), 0) FROM balances -- UPDATE nothing`).Scan(&total)
	return total, err
}

// ExportThroughPool takes the MySQL lock on a pinned connection but writes
// through the pool: that connection outlives the lock's session.
func ExportThroughPool(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var got sql.NullInt64
	if err := conn.QueryRowContext(ctx, `SELECT GET_LOCK('exports', 10)`).Scan(&got); err != nil {
		return err
	}
	if !got.Valid || got.Int64 != 1 {
		return errors.New("export: lock busy")
	}
	defer conn.ExecContext(context.Background(), `SELECT RELEASE_LOCK('exports')`)
	_, err = db.ExecContext(ctx, `UPDATE exports SET state = 'done' WHERE state = 'running'`) // want unfencedwrite:"without a fencing token"
	return err
}
