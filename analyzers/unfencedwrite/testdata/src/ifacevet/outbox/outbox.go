// Package outbox declares the outbox interface. Its implementations live in
// packages a caller never imports, so under go vet (one package at a time)
// the interface says what its calls do.
package outbox

import "context"

// Outbox queues messages for delivery.
type Outbox interface {
	// Publish appends a message to the shared outbox table.
	//
	//fencelint:write
	Publish(ctx context.Context, topic string, body []byte) error

	// PublishFenced appends a message only if fence is current.
	//
	//fencelint:fenced
	PublishFenced(ctx context.Context, topic string, body []byte, fence int64) error

	// Pending reads.
	Pending(ctx context.Context) (int, error)
}
