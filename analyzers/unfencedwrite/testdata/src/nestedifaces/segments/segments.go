// Package segments keeps a log's segment chain. Its Manager is reached
// through an interface, and it writes only through kv.Client, another
// interface: no implementation of either is in sight of this package or
// of the controller that calls it.
package segments

import (
	"context"
	"encoding/json"
	"time"

	"nestedifaces/kv"
)

// Manager scales the chain while its caller leads.
type Manager interface {
	Run(ctx context.Context, store kv.Client, scale bool) error
	Describe(ctx context.Context) (string, error)
}

type segment struct {
	ID   int64 `json:"id"`
	Next int64 `json:"next"`
}

type manager struct {
	store kv.Client
	tail  segment
}

func NewManager() Manager { return &manager{} }

// Run starts the goroutine that grows the chain: it links each new
// segment into the tail record it serializes from its in-memory copy.
func (m *manager) Run(ctx context.Context, store kv.Client, scale bool) error {
	m.store = store
	if scale {
		go m.scale(ctx)
	}
	return nil
}

func (m *manager) scale(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			next := segment{ID: m.tail.ID + 1}
			m.tail.Next = next.ID
			data, _ := json.Marshal(m.tail)
			_ = m.store.Set(ctx, "/segments/tail", data)
			m.tail = next
		}
	}
}

// Describe only reads.
func (m *manager) Describe(ctx context.Context) (string, error) {
	data, err := m.store.Get(ctx, "/segments/tail")
	return string(data), err
}
