package consullock

import (
	"context"
	"database/sql"
	"errors"

	"github.com/hashicorp/consul/api"
)

// Exporter runs at most one export at a time through a Consul semaphore of
// limit 1, and stops when the slot is lost; its write is still unfenced.
type Exporter struct {
	client *api.Client
	db     *sql.DB
}

// Export holds the slot while it marks the batch exported.
func (e *Exporter) Export(ctx context.Context, batch string) error {
	sem, err := e.client.SemaphorePrefix("service/exporter/slots", 1)
	if err != nil {
		return err
	}
	lost, err := sem.Acquire(ctx.Done())
	if err != nil {
		return err
	}
	if lost == nil {
		return errors.New("exporter: no slot")
	}
	defer sem.Release()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-lost:
			cancel()
		case <-ctx.Done():
		}
	}()
	_, err = e.db.ExecContext(ctx, `UPDATE batches SET exported = true WHERE id = $1`, batch) // want unfencedwrite:"without a fencing token"
	return err
}
