// Package bunstore is a reconciler that owns a partition through a
// PostgreSQL advisory lock on a dedicated connection and records its
// progress with the real bun: unfenced writes, fenced twins that read
// RowsAffected, and insert-if-absent checkpoints.
package bunstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"
)

var errStale = errors.New("stale fence: a newer owner has written")

// Partition is one partition's row.
type Partition struct {
	bun.BaseModel `bun:"table:partitions"`

	ID     int64 `bun:",pk"`
	Offset int64
	Owner  string
	Fence  int64
}

// Checkpoint is written once per offset.
type Checkpoint struct {
	PartitionID int64 `bun:",pk"`
	Offset      int64 `bun:",pk"`
}

// Reconciler owns partitions.
type Reconciler struct {
	db   *bun.DB
	conn bun.Conn
	name string
}

func (r *Reconciler) own(ctx context.Context, id int64) error {
	var ok bool
	if err := r.conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock(?)", id).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return errors.New("partition is owned elsewhere")
	}
	return nil
}

func mustChange(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errStale
	}
	return nil
}

// Advance moves the partition's offset.
func (r *Reconciler) Advance(ctx context.Context, p *Partition, tok int64) error {
	if err := r.own(ctx, p.ID); err != nil {
		return err
	}
	if _, err := r.db.NewUpdate().Model(p).Column("offset").WherePK().Exec(ctx); err != nil { // want unfencedwrite:"UpdateQuery.Exec \\(UPDATE partitions\\) writes to SQL database without a fencing token"
		return err
	}
	return mustChange(r.db.NewUpdate().Model(p).
		Set("offset = ?", p.Offset).Set("fence = ?", tok).
		WherePK().Where("fence <= ?", tok).Exec(ctx))
}

// Checkpoint records an offset once.
func (r *Reconciler) Checkpoint(ctx context.Context, cp *Checkpoint) error {
	if err := r.own(ctx, cp.PartitionID); err != nil {
		return err
	}
	if _, err := r.db.NewInsert().Model(cp).On("CONFLICT (partition_id, offset) DO NOTHING").Exec(ctx); err != nil {
		return err
	}
	_, err := r.db.NewDelete().Model((*Checkpoint)(nil)).Where("partition_id = ?", cp.PartitionID).Exec(ctx) // want unfencedwrite:"DeleteQuery.Exec \\(DELETE checkpoints\\) writes to SQL database without a fencing token"
	return err
}
