// Package concurrency is a stub of go.etcd.io/etcd/client/v3/concurrency
// v3.7.3 for analysistest fixtures: real signatures, no behaviour.
package concurrency

import (
	"context"

	v3 "go.etcd.io/etcd/client/v3"
)

type Session struct {
	client *v3.Client
	id     v3.LeaseID
}

func NewSession(client *v3.Client, opts ...SessionOption) (*Session, error) { panic("stub") }

func (s *Session) Client() *v3.Client    { panic("stub") }
func (s *Session) Lease() v3.LeaseID     { panic("stub") }
func (s *Session) Ctx() context.Context  { panic("stub") }
func (s *Session) Done() <-chan struct{} { panic("stub") }
func (s *Session) Orphan()               { panic("stub") }
func (s *Session) Close() error          { panic("stub") }

type sessionOptions struct {
	ttl     int
	leaseID v3.LeaseID
	ctx     context.Context
}

// SessionOption configures a Session. (The real one also takes a
// *zap.Logger; the stub leaves zap out.)
type SessionOption func(*sessionOptions)

func WithTTL(ttl int) SessionOption                 { panic("stub") }
func WithLease(leaseID v3.LeaseID) SessionOption    { panic("stub") }
func WithContext(ctx context.Context) SessionOption { panic("stub") }
