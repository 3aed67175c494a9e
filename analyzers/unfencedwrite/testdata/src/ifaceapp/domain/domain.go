// Package domain declares the application's types and the interfaces its
// services use; the implementations live in sibling packages that main
// wires together, so a service never imports them.
package domain

import (
	"context"
	"time"
)

type Run struct {
	ID    int64
	Job   string
	Ended time.Time
}

// RunStore keeps job runs.
type RunStore interface {
	InsertRun(ctx context.Context, r Run) error
	LastRun(ctx context.Context, job string) (Run, error)
}

// FencedRuns writes runs only if the caller's fence is current.
type FencedRuns interface {
	SaveRun(ctx context.Context, r Run, fence int64) error
}

// Journal appends job events; the PostgreSQL and MySQL stores both
// implement it, and configuration picks one.
type Journal interface {
	Record(ctx context.Context, job, event string) error
}

// Locker hands out named distributed locks.
type Locker interface {
	For(key string) Lock
}

// Lock is one distributed lock.
type Lock interface {
	Lock(ctx context.Context) error
	Unlock(ctx context.Context) error
}

// Notes records audit notes; only a test double implements it.
type Notes interface {
	Note(ctx context.Context, text string) error
}
