// Package releases replaces the release table from the upstream list on
// each tick, on the leader only.
package releases

import (
	"context"
	"database/sql"

	"flaggetter/leader"
)

type Handler struct {
	db   *sql.DB
	lead leader.ElectorInterface
}

// Sync asks the elector and then rewrites the whole table: a replica whose
// lease ended after the check overwrites the next leader's list.
func (h *Handler) Sync(ctx context.Context, images []string) error {
	if !h.lead.IsLeader() { // want `ElectorInterface.IsLeader \(via \*leader.Elector.IsLeader, which returns the leader flag isLeader, set in OnStartedLeading\) only tells that the lease was held when it ran, yet it guards the unfenced write Tx.ExecContext \(TRUNCATE release_images\)`
		return nil
	}
	tx, err := h.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "TRUNCATE TABLE release_images"); err != nil {
		return err
	}
	for _, img := range images {
		if _, err := tx.ExecContext(ctx, "INSERT INTO release_images (url) VALUES ($1)", img); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Status reads only: nothing to guard.
func (h *Handler) Status(ctx context.Context) (int, error) {
	if !h.lead.IsLeader() {
		return 0, nil
	}
	var n int
	err := h.db.QueryRowContext(ctx, "SELECT count(*) FROM release_images").Scan(&n)
	return n, err
}
