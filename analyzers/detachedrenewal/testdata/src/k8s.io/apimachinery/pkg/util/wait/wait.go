// Package wait is a stub of k8s.io/apimachinery/pkg/util/wait v0.37.2 for
// this analyzer's fixtures: real signatures, no behaviour.
package wait

import (
	"context"
	"time"
)

func Until(f func(), period time.Duration, stopCh <-chan struct{})                        {}
func UntilWithContext(ctx context.Context, f func(context.Context), period time.Duration) {}
func Forever(f func(), period time.Duration)                                              {}

// NeverStop may be passed to Until to make it never stop.
var NeverStop <-chan struct{} = make(chan struct{})
