package transitions

import (
	"context"
	"time"

	"gorm.io/gorm"
)

// Node is a node of the network, its heartbeat and status kept by the
// nodes themselves (globalindexer's node_info).
type Node struct {
	Address       string
	Status        string
	LastHeartbeat time.Time
	Priority      int
}

// MarkOffline moves every online node whose heartbeat is older than the
// cutoff offline. A stale holder's cutoff is older still, so it moves only
// nodes the next holder moves too; a node that beat since is younger.
func (w *Worker) MarkOffline(ctx context.Context, gdb *gorm.DB, cutoff int64) error {
	if err := w.lock(ctx, 3); err != nil {
		return err
	}
	return gdb.WithContext(ctx).Model(&Node{}).
		Where("last_heartbeat < ? and status = ?", time.Unix(cutoff, 0), "online").
		Update("status", "offline").Error
}

// ExpireTaken hands back the jobs taken more than five minutes ago, by the
// store's clock.
func (w *Worker) ExpireTaken(ctx context.Context) error {
	if err := w.lock(ctx, 3); err != nil {
		return err
	}
	_, err := w.db.ExecContext(ctx, "UPDATE jobs SET state = 'new' WHERE state = 'taken' AND taken_at < now() - interval '5 minutes'")
	return err
}

// Demote moves online nodes scored below a bound the holder computed: no
// time that only gets older, so no transition by age; the bound is read as
// a token the WHERE clause compares, whose count must then be read.
func (w *Worker) Demote(ctx context.Context, below float64) error {
	if err := w.lock(ctx, 3); err != nil {
		return err
	}
	_, err := w.db.ExecContext(ctx, "UPDATE nodes SET status = 'standby' WHERE status = 'online' AND score < $1", below) // want `ExecContext \(UPDATE nodes\) is fenced but its rows-affected count is never read`
	return err
}

// MarkOfflineAndNote also notes why on every node it moves: the note lands
// only on nodes the next holder moves alike.
func (w *Worker) MarkOfflineAndNote(ctx context.Context, gdb *gorm.DB, cutoff time.Time) error {
	if err := w.lock(ctx, 3); err != nil {
		return err
	}
	return gdb.WithContext(ctx).Model(&Node{}).
		Where("last_heartbeat < ? and status = ?", cutoff, "online").
		Updates(map[string]any{"status": "offline", "note": "missed heartbeats"}).Error
}
