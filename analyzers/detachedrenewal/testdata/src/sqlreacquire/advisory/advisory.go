// Package advisory is a GET_LOCK lock whose holder keeps it alive by
// running one of its methods in a goroutine.
package advisory

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"
)

// A Lock is GET_LOCK held on a connection of its own.
type Lock struct {
	conn *sql.Conn
	name string
}

func New(conn *sql.Conn, name string) *Lock { return &Lock{conn: conn, name: name} }

// Lock takes the lock.
func (l *Lock) Lock(ctx context.Context) error { return l.take(ctx) }

func (l *Lock) take(ctx context.Context) error {
	var got int
	if err := l.conn.QueryRowContext(ctx, "SELECT GET_LOCK(?, 0)", l.name).Scan(&got); err != nil {
		return err
	}
	if got != 1 {
		return errors.New("held by another session")
	}
	return nil
}

// KeepAlive takes the lock again every minute until ctx is done and only
// logs a failure.
func (l *Lock) KeepAlive(ctx context.Context) { // want KeepAlive:`detached MySQL renewal loop: Lock.take at advisory.go:45`
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := l.take(ctx); err != nil {
				log.Printf("lock %s: %v", l.name, err)
			}
		}
	}
}

// KeepAliveOrCancel cancels the holder's work when it fails.
func (l *Lock) KeepAliveOrCancel(ctx context.Context, cancel context.CancelCauseFunc) {
	for range time.Tick(time.Minute) {
		if err := l.take(ctx); err != nil {
			cancel(err)
			return
		}
	}
}

// Retry takes the lock, trying every second until it gets it.
func (l *Lock) Retry(ctx context.Context) {
	for {
		if err := l.take(ctx); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}
