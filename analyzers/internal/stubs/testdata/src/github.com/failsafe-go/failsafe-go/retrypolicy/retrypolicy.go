// Package retrypolicy is a stub of
// github.com/failsafe-go/failsafe-go/retrypolicy v0.6.1 for analysistest
// fixtures: real signatures, no behaviour.
package retrypolicy

import failsafe "github.com/failsafe-go/failsafe-go"

// RetryPolicy is a policy that defines when retries should be performed.
type RetryPolicy[R any] interface {
	failsafe.Policy[R]
}

// WithDefaults creates a RetryPolicy for execution result type R that
// allows 3 execution attempts max with no delay.
func WithDefaults[R any]() RetryPolicy[R] { return nil }
