package concurrency

import (
	"context"
	"errors"
	"sync"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	v3 "go.etcd.io/etcd/client/v3"
)

var (
	ErrLocked         = errors.New("mutex: Locked by another session")
	ErrSessionExpired = errors.New("mutex: session is expired")
	ErrLockReleased   = errors.New("mutex: lock has already been released")
)

type Mutex struct {
	s     *Session
	pfx   string
	myKey string
	myRev int64
	hdr   *pb.ResponseHeader
}

func NewMutex(s *Session, pfx string) (_ *Mutex) { return }

func (m *Mutex) TryLock(ctx context.Context) (_ error) { return }
func (m *Mutex) Lock(ctx context.Context) (_ error)    { return }
func (m *Mutex) Unlock(ctx context.Context) (_ error)  { return }
func (m *Mutex) IsOwner() (_ v3.Cmp)                   { return }
func (m *Mutex) Key() (_ string)                       { return }
func (m *Mutex) Header() (_ *pb.ResponseHeader)        { return }

func NewLocker(s *Session, pfx string) (_ sync.Locker) { return }
