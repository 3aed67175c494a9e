// Command sequencer wires the queue into the controller and leads.
package main

import (
	"context"
	"database/sql"
	"time"

	"k8s.io/client-go/tools/leaderelection/resourcelock"

	"handedcallees/election"
	"handedcallees/queue"
	"handedcallees/sequences"
)

func run(ctx context.Context, db *sql.DB, lock resourcelock.Interface) {
	c := sequences.New(db, queue.New(time.Second))
	c.Replay(ctx)
	// Reported in package sequences, where Start writes.
	election.Lead(ctx, lock, c.Start, c.Stop)
}

func main() {}
