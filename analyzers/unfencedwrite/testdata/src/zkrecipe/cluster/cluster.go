// Package cluster declares the coordination the registry needs.
package cluster

import "context"

// Lock is a coarse distributed lock on a fixed path.
type Lock interface {
	Lock(context.Context) error
	Unlock(context.Context) error
	// Owner names the holder.
	Owner() string
}
