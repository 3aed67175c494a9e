// Package state is reduced from replicare: a daemon runs each sync under an
// ownership lock taken through its StateStore, and every write of the sync
// goes through that store too.
package state

import "context"

// StateStore keeps a sync's definition, progress and cursors, and its
// ownership lock.
type StateStore interface {
	Acquire(ctx context.Context, sync string) (held bool, release func() error, err error)
	PutSync(ctx context.Context, name, source string) error
	RecordEvent(ctx context.Context, sync, event string) error
	SaveProgress(ctx context.Context, sync, table string, watermark int64) error
	LoadCursor(ctx context.Context, sync, table string) (Cursor, error)
	SaveCursor(ctx context.Context, sync string, cur Cursor) error
	EnsureTarget(ctx context.Context, sync, target string) error
}

// Cursor is a table's replication position for one target.
type Cursor struct {
	Table string
	Phase string
	LSN   int64
}
