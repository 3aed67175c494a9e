// Package backoff is a stub of github.com/cenkalti/backoff/v4 v4.3.0 for
// analysistest fixtures: real signatures, no behaviour.
package backoff

import "time"

// BackOff is a backoff policy for retrying an operation.
type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

// ExponentialBackOff is a backoff implementation that increases the
// backoff period for each retry attempt.
type ExponentialBackOff struct {
	InitialInterval time.Duration
	MaxElapsedTime  time.Duration
}

func (b *ExponentialBackOff) NextBackOff() time.Duration { return 0 }
func (b *ExponentialBackOff) Reset()                     {}

// ExponentialBackOffOpts is a function type used to configure
// ExponentialBackOff options.
type ExponentialBackOffOpts func(*ExponentialBackOff)

// NewExponentialBackOff creates an instance of ExponentialBackOff using
// default values.
func NewExponentialBackOff(opts ...ExponentialBackOffOpts) *ExponentialBackOff {
	return &ExponentialBackOff{}
}

// An Operation is executing by Retry() or RetryNotify(). The operation
// will be retried using a backoff policy if it returns an error.
type Operation func() error

// An OperationWithData is executing by RetryWithData() or
// RetryNotifyWithData().
type OperationWithData[T any] func() (T, error)

// Notify is a notify-on-error function.
type Notify func(error, time.Duration)

// Retry the operation o until it does not return error or BackOff stops.
func Retry(o Operation, b BackOff) error { return nil }

// RetryWithData is like Retry but returns data in the response too.
func RetryWithData[T any](o OperationWithData[T], b BackOff) (T, error) {
	var t T
	return t, nil
}

// RetryNotify calls notify function with the error and wait duration for
// each failed attempt before sleep.
func RetryNotify(operation Operation, b BackOff, notify Notify) error { return nil }
