package redisnx

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// RoomStore is reduced from LiveKit's ObjectStore: the room lock and the
// room writes go through the application's own interface.
type RoomStore interface {
	LockRoom(ctx context.Context, room string, ttl time.Duration) (string, error)
	UnlockRoom(ctx context.Context, room, token string) error
	StoreRoom(ctx context.Context, room, data string) error
}

// redisRoomStore keeps its compare-and-delete unlock script in a field.
type redisRoomStore struct {
	rc           redis.UniversalClient
	unlockScript *redis.Script
}

func newRedisRoomStore(rc redis.UniversalClient) *redisRoomStore {
	unlock := `if redis.call("get", KEYS[1]) == ARGV[1] then
	return redis.call("del", KEYS[1])
else
	return 0
end`
	return &redisRoomStore{rc: rc, unlockScript: redis.NewScript(unlock)}
}

func (s *redisRoomStore) LockRoom(ctx context.Context, room string, ttl time.Duration) (string, error) {
	token := uuid.NewString()
	ok, err := s.rc.SetNX(ctx, "room_lock:"+room, token, ttl).Result()
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errBusy
	}
	return token, nil
}

func (s *redisRoomStore) UnlockRoom(ctx context.Context, room, token string) error {
	return s.unlockScript.Run(ctx, s.rc, []string{"room_lock:" + room}, token).Err()
}

func (s *redisRoomStore) StoreRoom(ctx context.Context, room, data string) error {
	return s.rc.HSet(ctx, "rooms", room, data).Err()
}

// RoomAllocator writes the room under the 5 s room lock and releases it
// before returning.
type RoomAllocator struct{ store RoomStore }

func (a *RoomAllocator) CreateRoom(ctx context.Context, room string) (string, error) {
	token, err := a.store.LockRoom(ctx, room, 5*time.Second)
	if err != nil {
		return "", err
	}
	defer func() { _ = a.store.UnlockRoom(ctx, room, token) }()
	data := room + ":created"
	return data, a.store.StoreRoom(ctx, room, data) // want unfencedwrite:"StoreRoom .* without a fencing token while the Redis lock taken by RoomStore.LockRoom"
}

// RoomCreator is how the room manager sees the allocator.
type RoomCreator interface {
	CreateRoom(ctx context.Context, room string) (string, error)
}

// RoomManager writes after CreateRoom returned: the room lock is released
// by then, and no lock is held here.
type RoomManager struct {
	alloc RoomCreator
	store RoomStore
}

func (m *RoomManager) GetOrCreateRoom(ctx context.Context, room string) error {
	data, err := m.alloc.CreateRoom(ctx, room)
	if err != nil {
		return err
	}
	return m.store.StoreRoom(ctx, room, data+":started")
}
