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

func (err ErrTaken) Error() (_ string) { return }

type Mutex struct {
	name   string
	expiry time.Duration
	value  string
	until  time.Time
	pools  []redis.Pool
}

func (m *Mutex) Name() string                                        { return m.name }
func (m *Mutex) Value() string                                       { return m.value }
func (m *Mutex) Until() time.Time                                    { return m.until }
func (m *Mutex) TryLock() (_ error)                                  { return }
func (m *Mutex) TryLockContext(ctx context.Context) (_ error)        { return }
func (m *Mutex) Lock() (_ error)                                     { return }
func (m *Mutex) LockContext(ctx context.Context) (_ error)           { return }
func (m *Mutex) Unlock() (_ bool, _ error)                           { return }
func (m *Mutex) UnlockContext(ctx context.Context) (_ bool, _ error) { return }
func (m *Mutex) Extend() (_ bool, _ error)                           { return }
func (m *Mutex) ExtendContext(ctx context.Context) (_ bool, _ error) { return }
func (m *Mutex) Valid() (_ bool, _ error)                            { return }
func (m *Mutex) ValidContext(ctx context.Context) (_ bool, _ error)  { return }
