// Package retry is a stub of github.com/avast/retry-go/v4 v4.7.0 for
// analysistest fixtures: real signatures, no behaviour.
package retry

import "time"

// Function signature of retryable function.
type RetryableFunc func() error

// Function signature of retryable function with data.
type RetryableFuncWithData[T any] func() (T, error)

// Config is the retry configuration.
type Config struct{}

// Option represents an option for retry.
type Option func(*Config)

// Attempts set count of retry. Setting to 0 will retry until the retried
// function succeeds.
func Attempts(attempts uint) Option { return nil }

// Delay set delay between retry.
func Delay(delay time.Duration) Option { return nil }

// Do retries the function until it returns no error or the attempts run
// out.
func Do(retryableFunc RetryableFunc, opts ...Option) error { return nil }

// DoWithData retries the function until it returns no error or the
// attempts run out, and returns its data.
func DoWithData[T any](retryableFunc RetryableFuncWithData[T], opts ...Option) (T, error) {
	var t T
	return t, nil
}
