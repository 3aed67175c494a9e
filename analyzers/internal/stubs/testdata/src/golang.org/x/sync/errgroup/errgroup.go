// Package errgroup is a stub of golang.org/x/sync/errgroup v0.24.0 for
// analysistest fixtures: real signatures, no behaviour.
package errgroup

import "context"

type Group struct{}

func WithContext(ctx context.Context) (*Group, context.Context) { return &Group{}, ctx }

func (g *Group) Go(f func() error)         {}
func (g *Group) TryGo(f func() error) bool { return false }
func (g *Group) Wait() (_ error)           { return }
func (g *Group) SetLimit(n int)            {}
