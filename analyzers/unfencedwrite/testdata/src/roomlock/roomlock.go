// Package roomlock is reduced from LiveKit's room service: a room lock
// (SET NX with a random token, released by a compare-and-delete script kept
// in a struct field) taken through the application's own ObjectStore
// interface. CreateRoom locks, writes and releases before it returns: it is
// no acquire wrapper, and its callers' writes hold no lock.
package roomlock

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

const roomLockPrefix = "room_lock:"

var errLockFailed = errors.New("could not lock room")

// ObjectStore is the room store the services see.
type ObjectStore interface {
	LockRoom(ctx context.Context, room string, duration time.Duration) (string, error)
	UnlockRoom(ctx context.Context, room, token string) error
	LoadRoom(ctx context.Context, room string) (string, error)
	StoreRoom(ctx context.Context, room, data string) error
}

// RedisStore implements ObjectStore on Redis.
type RedisStore struct {
	rc           *redis.Client
	unlockScript *redis.Script
}

func NewRedisStore(rc *redis.Client) *RedisStore {
	unlockScript := `if redis.call("get", KEYS[1]) == ARGV[1] then
	return redis.call("del", KEYS[1])
else
	return 0
end`
	return &RedisStore{rc: rc, unlockScript: redis.NewScript(unlockScript)}
}

func (s *RedisStore) LockRoom(ctx context.Context, room string, duration time.Duration) (string, error) {
	token := "LOCK_" + room
	start := time.Now()
	for time.Since(start) <= duration {
		locked, err := s.rc.SetNX(ctx, roomLockPrefix+room, token, duration).Result()
		if err != nil {
			return "", err
		}
		if locked {
			return token, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return "", errLockFailed
}

// UnlockRoom deletes the lock key only if it still holds our token: a
// release, though it runs a script.
func (s *RedisStore) UnlockRoom(ctx context.Context, room, token string) error {
	return s.unlockScript.Run(ctx, s.rc, []string{roomLockPrefix + room}, token).Err()
}

func (s *RedisStore) LoadRoom(ctx context.Context, room string) (string, error) {
	return s.rc.HGet(ctx, "rooms", room).Result()
}

func (s *RedisStore) StoreRoom(ctx context.Context, room, data string) error {
	return s.rc.HSet(ctx, "rooms", room, data).Err()
}

// Allocator creates rooms under the room lock.
type Allocator struct{ store ObjectStore }

// CreateRoom loads, edits and stores the room under a 5 s lock: a holder
// paused past 5 s overwrites another node's update (LiveKit's T08).
func (a *Allocator) CreateRoom(ctx context.Context, room string) (string, error) {
	token, err := a.store.LockRoom(ctx, room, 5*time.Second)
	if err != nil {
		return "", err
	}
	defer func() {
		_ = a.store.UnlockRoom(ctx, room, token)
	}()
	data, err := a.store.LoadRoom(ctx, room)
	if err != nil {
		return "", err
	}
	data += "+edited"
	if err := a.store.StoreRoom(ctx, room, data); err != nil { // want `ObjectStore.StoreRoom \(HSet at roomlock.go:\d+, via \*roomlock.RedisStore.StoreRoom\) writes to Redis without a fencing token while the Redis lock taken by ObjectStore.LockRoom`
		return "", err
	}
	return data, nil
}

// Allocating is how the room manager sees the allocator.
type Allocating interface {
	CreateRoom(ctx context.Context, room string) (string, error)
}

// Manager starts rooms on this node.
type Manager struct {
	alloc Allocating
	store ObjectStore
}

// GetOrCreateRoom writes after CreateRoom returned, which released the
// room lock on its way out: no lock is held here.
func (m *Manager) GetOrCreateRoom(ctx context.Context, room string) error {
	data, err := m.alloc.CreateRoom(ctx, room)
	if err != nil {
		return err
	}
	return m.store.StoreRoom(ctx, room, data+"+started")
}

// lockOnly takes the room lock and returns holding it: an acquire wrapper,
// and its caller writes under the lock.
func (m *Manager) lockOnly(ctx context.Context, room string) (string, error) {
	return m.store.LockRoom(ctx, room, 5*time.Second)
}

// Rename writes under the lock lockOnly took and keeps until it returns.
func (m *Manager) Rename(ctx context.Context, room, name string) error {
	token, err := m.lockOnly(ctx, room)
	if err != nil {
		return err
	}
	defer m.store.UnlockRoom(ctx, room, token)
	return m.store.StoreRoom(ctx, room, name) // want `ObjectStore.StoreRoom .* writes to Redis without a fencing token while the Redis lock taken by Manager.lockOnly`
}
