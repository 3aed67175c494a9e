// Package persist declares the metadata store a controller keeps its
// cluster topology in, and asks who leads.
package persist

import "context"

type Persistence interface {
	ID() string
	Leader() string
	Set(ctx context.Context, key string, value []byte) error
}
