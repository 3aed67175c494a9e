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

func NewMutex(s *Session, pfx string) *Mutex { panic("stub") }

func (m *Mutex) TryLock(ctx context.Context) error { panic("stub") }
func (m *Mutex) Lock(ctx context.Context) error    { panic("stub") }
func (m *Mutex) Unlock(ctx context.Context) error  { panic("stub") }
func (m *Mutex) IsOwner() v3.Cmp                   { panic("stub") }
func (m *Mutex) Key() string                       { panic("stub") }
func (m *Mutex) Header() *pb.ResponseHeader        { panic("stub") }

func NewLocker(s *Session, pfx string) sync.Locker { panic("stub") }
