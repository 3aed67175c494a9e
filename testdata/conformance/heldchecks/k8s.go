package heldchecks

import (
	"context"
	"database/sql"
	"log"

	"k8s.io/client-go/tools/leaderelection"
)

// Controller publishes reports while it leads.
type Controller struct {
	le *leaderelection.LeaderElector
	db *sql.DB
	id string
}

// Publish trusts the elector's cached view of the Lease object.
func (c *Controller) Publish(ctx context.Context, id int64) error {
	if !c.le.IsLeader() { // want heldcheck:"only tells that the lease was held"
		return nil
	}
	_, err := c.db.ExecContext(ctx, `UPDATE reports SET state = 'published' WHERE id = $1`, id)
	return err
}

// Claim compares the observed holder with its own identity.
func (c *Controller) Claim(ctx context.Context) {
	if c.le.GetLeader() == c.id { // want heldcheck:"only tells that the lease was held"
		c.db.ExecContext(ctx, `UPDATE reports SET owner = $1`, c.id)
	}
}

// PublishFenced writes with the lease's token as a fence and checks it.
func (c *Controller) PublishFenced(ctx context.Context, id, token int64) error {
	if !c.le.IsLeader() {
		return nil
	}
	res, err := c.db.ExecContext(ctx, `UPDATE reports SET state = 'published', fence = $2 WHERE id = $1 AND fence < $2`, id, token)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errLost
	}
	return nil
}

// Status only logs what the elector says.
func (c *Controller) Status() {
	if c.le.IsLeader() {
		log.Print("leading")
	}
}
