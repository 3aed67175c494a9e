// Package fake holds the in-memory implementations used in development:
// they write nothing shared and lock nothing distributed, so they change
// nothing about what a call through app's interfaces does.
package fake

import (
	"context"
	"sync"

	"github.com/fencelint/fencelint/testdata/conformance/ifaces/app"
)

// Repo keeps invoices in a map.
type Repo struct {
	mu       sync.Mutex
	invoices map[int64]app.Invoice
}

func (r *Repo) Invoice(ctx context.Context, id int64) (app.Invoice, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.invoices[id], nil
}

func (r *Repo) MarkPaid(ctx context.Context, id int64) error {
	return r.SetStatus(ctx, id, "paid", 0)
}

func (r *Repo) SetStatus(ctx context.Context, id int64, status string, fence int64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	inv := r.invoices[id]
	inv.Status = status
	r.invoices[id] = inv
	return nil
}
