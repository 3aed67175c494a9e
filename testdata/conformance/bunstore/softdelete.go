package bunstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Lease is soft-deleted: bun sends its delete as an UPDATE stamping
// deleted_at on rows not stamped yet, unless ForceDelete.
type Lease struct {
	bun.BaseModel `bun:"table:partition_leases"`

	ID        int64 `bun:",pk"`
	EndsAt    time.Time
	DeletedAt time.Time `bun:",soft_delete,nullzero"`
}

// Sweep retires the partition's ended leases.
func (r *Reconciler) Sweep(ctx context.Context, p *Partition, now time.Time) error {
	if err := r.own(ctx, p.ID); err != nil {
		return err
	}
	// A soft delete by age: stamping what has ended twice stamps it once.
	if _, err := r.db.NewDelete().Model((*Lease)(nil)).Where("ends_at < ?", now).Exec(ctx); err != nil {
		return err
	}
	if _, err := r.db.NewDelete().Model((*Lease)(nil)).Where("ends_at < ?", now.Add(-24*time.Hour)).ForceDelete().Exec(ctx); err != nil {
		return err
	}
	// Over stamped rows too, it moves their stamps.
	if _, err := r.db.NewDelete().Model((*Lease)(nil)).Where("ends_at < now()").WhereAllWithDeleted().Exec(ctx); err != nil { // want unfencedwrite:"DeleteQuery.Exec \\(UPDATE partition_leases\\) writes to SQL database without a fencing token"
		return err
	}
	l := &Lease{ID: p.ID}
	_, err := r.db.NewDelete().Model(l).WherePK().Exec(ctx) // want unfencedwrite:"DeleteQuery.Exec \\(UPDATE partition_leases\\) writes to SQL database without a fencing token"
	return err
}
