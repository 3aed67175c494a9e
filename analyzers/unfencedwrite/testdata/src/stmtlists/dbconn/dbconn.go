// Package dbconn runs lists of SQL statements: in a retried transaction, on
// a connection holding table locks, one after another.
package dbconn

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"
)

// Config says how often a transaction is retried.
type Config struct {
	MaxRetries int
}

// RetryableTransaction executes stmts in one transaction, retried up to
// config.MaxRetries times, and returns the rows they changed.
func RetryableTransaction(ctx context.Context, db *sql.DB, config *Config, stmts ...string) (int64, error) {
	var (
		err          error
		rowsAffected int64
	)
	for i := 0; i < config.MaxRetries; i++ {
		func() {
			var trx *sql.Tx
			if trx, err = db.BeginTx(ctx, nil); err != nil {
				return
			}
			defer func() {
				if err != nil {
					_ = trx.Rollback()
					time.Sleep(time.Duration(i) * time.Millisecond)
				}
			}()
			for _, stmt := range stmts {
				if stmt == "" {
					continue
				}
				var res sql.Result
				if res, err = trx.ExecContext(ctx, stmt); err != nil {
					return
				}
				var warnings *sql.Rows
				if warnings, err = trx.QueryContext(ctx, "SHOW WARNINGS"); err != nil {
					return
				}
				if warnings.Next() {
					err = errors.New("unsafe warning")
					return
				}
				if n, errC := res.RowsAffected(); errC == nil {
					rowsAffected += n
				}
			}
			err = trx.Commit()
		}()
		if err == nil {
			return rowsAffected, nil
		}
	}
	return rowsAffected, err
}

// ApplyAll executes stmts in a retried transaction.
func ApplyAll(ctx context.Context, db *sql.DB, stmts ...string) error {
	_, err := RetryableTransaction(ctx, db, &Config{MaxRetries: 5}, stmts...)
	return err
}

// Apply executes stmt in a retried transaction.
func Apply(ctx context.Context, db *sql.DB, stmt string) error {
	_, err := RetryableTransaction(ctx, db, &Config{MaxRetries: 5}, stmt)
	return err
}

// TableLock holds LOCK TABLES on a connection of its own.
type TableLock struct {
	lockTxn *sql.Tx
}

// ExecUnderLock executes stmts on the lock's connection.
func (s *TableLock) ExecUnderLock(ctx context.Context, stmts ...string) error {
	for _, stmt := range stmts {
		if stmt == "" {
			continue
		}
		if _, err := s.lockTxn.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}

// ExecAll executes each of stmts in turn.
func ExecAll(ctx context.Context, db *sql.DB, stmts []string) error {
	for i := range stmts {
		if _, err := db.ExecContext(ctx, stmts[i]); err != nil {
			return err
		}
	}
	return nil
}

// WithRetry executes one statement, retried.
func WithRetry(ctx context.Context, db *sql.DB, query string, args ...any) error {
	return retry(func() error {
		_, err := db.ExecContext(ctx, query, args...)
		return err
	})
}

func retry(f func() error) error {
	var err error
	for range 3 {
		if err = f(); err == nil {
			return nil
		}
	}
	return err
}

// Traced runs a health query and logs each of notes: the notes are never
// sent to the database.
func Traced(ctx context.Context, db *sql.DB, notes ...string) error {
	return retry(func() error {
		for _, note := range notes {
			log.Print(note)
		}
		_, err := db.ExecContext(ctx, "SELECT 1")
		return err
	})
}

// Prepared returns a func that executes stmts later, when its caller
// calls it: this function itself executes nothing.
func Prepared(db *sql.DB, stmts ...string) func(context.Context) error {
	return func(ctx context.Context) error {
		for _, stmt := range stmts {
			if _, err := db.ExecContext(ctx, stmt); err != nil {
				return err
			}
		}
		return nil
	}
}
