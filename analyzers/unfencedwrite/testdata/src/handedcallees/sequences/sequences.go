// Package sequences starts queued sequences. Main hands Start to the
// leader election as a method value, so Start and the work it hands on run
// under the election's lease: the writes are reported here, where the fix
// goes, and not where main hands Start over.
package sequences

import (
	"context"
	"database/sql"
)

// Dispatcher is the queue's API as this package sees it; main wires
// queue.Dispatcher in.
type Dispatcher interface {
	Run(ctx context.Context, dispatch func(ctx context.Context, id string) error)
}

type Controller struct {
	db         *sql.DB
	dispatcher Dispatcher
}

func New(db *sql.DB, d Dispatcher) *Controller { return &Controller{db: db, dispatcher: d} }

// Start runs while main's replica leads.
func (c *Controller) Start(ctx context.Context) {
	c.db.ExecContext(ctx, "UPDATE sequences SET leader_seen = now()") // want `DB.ExecContext \(UPDATE sequences\) writes to SQL database without a fencing token while the Kubernetes leader election lease \(OnStartedLeading\), handed over at main.go:\d+, that Controller.Start holds`
	c.dispatcher.Run(ctx, c.startSequence)
}

// startSequence runs in the queue's goroutine, started under the lease.
func (c *Controller) startSequence(ctx context.Context, id string) error {
	_, err := c.db.ExecContext(ctx, "UPDATE sequences SET state = 'started' WHERE id = $1", id) // want `DB.ExecContext \(UPDATE sequences\) writes to SQL database without a fencing token while the Kubernetes leader election lease`
	return err
}

// Replay is started by main outside any lease: the same dispatcher and
// the same kind of work, and no finding.
func (c *Controller) Replay(ctx context.Context) {
	c.dispatcher.Run(ctx, c.replaySequence)
}

func (c *Controller) replaySequence(ctx context.Context, id string) error {
	_, err := c.db.ExecContext(ctx, "UPDATE sequences SET replayed = true WHERE id = $1", id)
	return err
}

// Stop is handed to the election too, but as the lost-lease callback: it
// runs under no lease.
func (c *Controller) Stop() {
	c.db.Exec("UPDATE sequences SET leader_seen = NULL")
}
