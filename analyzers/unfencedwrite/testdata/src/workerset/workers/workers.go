// Package workers runs the leader's reconcilers. It knows them only by the
// Worker interface; main hands in the implementations.
package workers

import "context"

// A Worker brings one kind of object to its desired state.
type Worker interface {
	Reconcile(ctx context.Context) error
}

// RunAll runs each worker once, in order.
func RunAll(ctx context.Context, ws []Worker) error {
	for _, w := range ws {
		if err := run(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

func run(ctx context.Context, w Worker) error {
	return w.Reconcile(ctx)
}
