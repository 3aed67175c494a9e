package redsync

import (
	"context"
	"errors"
	"time"

	"github.com/go-redsync/redsync/v4/redis"
)

var (
	ErrFailed             = errors.New("redsync: failed to acquire lock")
	ErrExtendFailed       = errors.New("redsync: failed to extend lock")
	ErrLockAlreadyExpired = errors.New("redsync: failed to unlock, lock was already expired")
)

type ErrTaken struct {
	Nodes []int
}

func (err ErrTaken) Error() string { panic("stub") }

type Mutex struct {
	name   string
	expiry time.Duration
	value  string
	until  time.Time
	pools  []redis.Pool
}

func (m *Mutex) Name() string                                    { return m.name }
func (m *Mutex) Value() string                                   { return m.value }
func (m *Mutex) Until() time.Time                                { return m.until }
func (m *Mutex) TryLock() error                                  { panic("stub") }
func (m *Mutex) TryLockContext(ctx context.Context) error        { panic("stub") }
func (m *Mutex) Lock() error                                     { panic("stub") }
func (m *Mutex) LockContext(ctx context.Context) error           { panic("stub") }
func (m *Mutex) Unlock() (bool, error)                           { panic("stub") }
func (m *Mutex) UnlockContext(ctx context.Context) (bool, error) { panic("stub") }
func (m *Mutex) Extend() (bool, error)                           { panic("stub") }
func (m *Mutex) ExtendContext(ctx context.Context) (bool, error) { panic("stub") }
func (m *Mutex) Valid() (bool, error)                            { panic("stub") }
func (m *Mutex) ValidContext(ctx context.Context) (bool, error)  { panic("stub") }
