// Package coord is the coordinator every deployment shares; it reaches the
// store through the QDB interface.
package coord

import (
	"context"

	"embedcoords/qdb"
)

type Coordinator struct{ db qdb.QDB }

func NewCoordinator(db qdb.QDB) *Coordinator { return &Coordinator{db: db} }

// UpdateMoveStatus has the store's method's own name and signature.
func (c *Coordinator) UpdateMoveStatus(ctx context.Context, id, status string) error {
	return c.db.UpdateMoveStatus(ctx, id, status)
}
