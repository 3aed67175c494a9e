// Package pgxmigrate applies migrations under a session advisory lock, in
// goalert's shape: the lock is taken on a pgx connection of the migrator's
// own, which it closes on return, ending the session and the lock with it.
package pgxmigrate

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5"
)

// acquire waits for the migration lock on conn.
func acquire(ctx context.Context, conn *pgx.Conn) error {
	_, err := conn.Exec(ctx, `select pg_advisory_lock(42)`)
	return err
}

// Up applies the migrations on the connection that holds the lock, and
// closes it: Up returns holding nothing, so it is no acquire wrapper.
func Up(ctx context.Context, url string) (int, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return 0, err
	}
	defer conn.Close(ctx)
	if err := acquire(ctx, conn); err != nil {
		return 0, err
	}
	return 1, nil
}

// Lock takes the lock on a connection it hands to the caller: it returns
// holding it (an acquire wrapper), and so its caller's writes are under it.
func Lock(ctx context.Context, url string) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	if err := acquire(ctx, conn); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	return conn, nil
}

// Reset migrates, then fills the database through the pool: nothing is
// held by then.
func Reset(ctx context.Context, url string, db *sql.DB) error {
	if _, err := Up(ctx, url); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `insert into users (name) values ('admin')`)
	return err
}

// Seed writes through the pool while Lock's connection holds the lock.
func Seed(ctx context.Context, url string, db *sql.DB) error {
	conn, err := Lock(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = db.ExecContext(ctx, `update settings set seeded = true`) // want `DB.ExecContext \(UPDATE settings\) writes to SQL database without a fencing token while the PostgreSQL lock taken by pgxmigrate.Lock \(line 59\) is held`
	return err
}

// awaitIdle dials a connection of its own, waits on it for other sessions
// to finish, and closes it in a deferred closure: it holds no lock, so it
// lets go of none of its caller's.
func awaitIdle(ctx context.Context, url string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer func() {
		_ = conn.Close(ctx)
	}()
	_, err = conn.Exec(ctx, `select pg_sleep(1)`)
	return err
}

// Backfill waits for idle sessions under Lock's lock, then writes: still
// under it.
func Backfill(ctx context.Context, url string, db *sql.DB) error {
	conn, err := Lock(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if err := awaitIdle(ctx, url); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `update settings set backfilled = true`) // want `DB.ExecContext \(UPDATE settings\) writes to SQL database without a fencing token while the PostgreSQL lock taken by pgxmigrate.Lock`
	return err
}
