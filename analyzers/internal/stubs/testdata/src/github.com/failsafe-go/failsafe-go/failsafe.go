// Package failsafe is a stub of github.com/failsafe-go/failsafe-go v0.6.1
// for analysistest fixtures: real signatures, no behaviour. (v0.9 keeps
// the Executor's methods and drops the package-level functions.)
package failsafe

import "context"

// Policy handles execution failures.
type Policy[R any] interface {
	ToExecutor(typeToken R) any
}

// Execution contains information about an execution.
type Execution[R any] interface {
	Context() context.Context
	IsCanceled() bool
}

// Executor handles failures according to configured policies.
type Executor[R any] interface {
	WithContext(ctx context.Context) Executor[R]
	Run(fn func() error) error
	RunWithExecution(fn func(exec Execution[R]) error) error
	Get(fn func() (R, error)) (R, error)
	GetWithExecution(fn func(exec Execution[R]) (R, error)) (R, error)
}

// Run executes the fn until successful or until the policies are exceeded.
func Run(fn func() error, policies ...Policy[any]) error { return nil }

// RunWithExecution executes the fn until successful or until the policies
// are exceeded.
func RunWithExecution(fn func(exec Execution[any]) error, policies ...Policy[any]) error { return nil }

// Get executes the fn until a successful result is returned or the
// policies are exceeded.
func Get[R any](fn func() (R, error), policies ...Policy[R]) (R, error) {
	var r R
	return r, nil
}

// GetWithExecution executes the fn until a successful result is returned
// or the policies are exceeded.
func GetWithExecution[R any](fn func(exec Execution[R]) (R, error), policies ...Policy[R]) (R, error) {
	var r R
	return r, nil
}

// NewExecutor creates and returns a new Executor for result type R.
func NewExecutor[R any](policies ...Policy[R]) Executor[R] { return nil }
