// Package wait is a stub of k8s.io/apimachinery/pkg/util/wait v0.37.2:
// real signatures, no behaviour.
package wait

import (
	"context"
	"sync"
	"time"
)

type ConditionFunc func() (done bool, err error)

type ConditionWithContextFunc func(context.Context) (done bool, err error)

func Until(f func(), period time.Duration, stopCh <-chan struct{})                        {}
func UntilWithContext(ctx context.Context, f func(context.Context), period time.Duration) {}
func NonSlidingUntil(f func(), period time.Duration, stopCh <-chan struct{})              {}
func NonSlidingUntilWithContext(ctx context.Context, f func(context.Context), period time.Duration) {
}
func JitterUntil(f func(), period time.Duration, jitterFactor float64, sliding bool, stopCh <-chan struct{}) {
}
func JitterUntilWithContext(ctx context.Context, f func(context.Context), period time.Duration, jitterFactor float64, sliding bool) {
}
func Forever(f func(), period time.Duration) {}

func PollUntil(interval time.Duration, condition ConditionFunc, stopCh <-chan struct{}) error {
	return nil
}
func PollImmediateUntil(interval time.Duration, condition ConditionFunc, stopCh <-chan struct{}) error {
	return nil
}
func PollUntilContextCancel(ctx context.Context, interval time.Duration, immediate bool, condition ConditionWithContextFunc) error {
	return nil
}

// Group starts functions in goroutines and waits for them.
type Group struct {
	wg sync.WaitGroup
}

func (g *Group) Wait()                                                                   {}
func (g *Group) StartWithChannel(stopCh <-chan struct{}, f func(stopCh <-chan struct{})) {}
func (g *Group) StartWithContext(ctx context.Context, f func(context.Context))           {}
func (g *Group) Start(f func())                                                          {}

// NeverStop may be passed to Until to make it never stop.
var NeverStop <-chan struct{} = make(chan struct{})
