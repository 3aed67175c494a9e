// Package retry is a stub of github.com/sethvargo/go-retry v0.5.0 for
// analysistest fixtures: real signatures, no behaviour.
package retry

import (
	"context"
	"time"
)

// Backoff is an interface that backs off.
type Backoff interface {
	Next() (next time.Duration, stop bool)
}

// RetryFunc is a function passed to Do.
type RetryFunc func(ctx context.Context) error

// RetryFuncValue is a function passed to DoValue.
type RetryFuncValue[T any] func(ctx context.Context) (T, error)

// RetryableError marks an error as retryable.
func RetryableError(err error) error { return err }

// DoValue wraps a function with a backoff to retry.
func DoValue[T any](ctx context.Context, b Backoff, f RetryFuncValue[T]) (T, error) {
	var t T
	return t, nil
}

// Do wraps a function with a backoff to retry.
func Do(ctx context.Context, b Backoff, f RetryFunc) error { return nil }

// NewFibonacci creates a new Fibonacci backoff using the starting value of
// base.
func NewFibonacci(base time.Duration) Backoff { return nil }

// WithMaxRetries executes the backoff function up until the maximum
// attempts.
func WithMaxRetries(max uint64, next Backoff) Backoff { return next }
