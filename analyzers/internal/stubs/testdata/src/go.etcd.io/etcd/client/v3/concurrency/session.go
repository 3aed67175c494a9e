// Package concurrency is a stub of go.etcd.io/etcd/client/v3/concurrency
// v3.7.3 for analysistest fixtures: real signatures, no behaviour.
package concurrency

import (
	"context"

	v3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

type Session struct {
	client *v3.Client
	id     v3.LeaseID
}

func NewSession(client *v3.Client, opts ...SessionOption) (_ *Session, _ error) { return }

func (s *Session) Client() (_ *v3.Client)    { return }
func (s *Session) Lease() (_ v3.LeaseID)     { return }
func (s *Session) Ctx() (_ context.Context)  { return }
func (s *Session) Done() (_ <-chan struct{}) { return }
func (s *Session) Orphan()                   { return }
func (s *Session) Close() (_ error)          { return }

type sessionOptions struct {
	ttl     int
	leaseID v3.LeaseID
	ctx     context.Context
}

type SessionOption func(*sessionOptions, *zap.Logger)

func WithTTL(ttl int) (_ SessionOption)                 { return }
func WithLease(leaseID v3.LeaseID) (_ SessionOption)    { return }
func WithContext(ctx context.Context) (_ SessionOption) { return }
