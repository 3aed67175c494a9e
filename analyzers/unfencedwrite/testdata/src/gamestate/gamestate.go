// Package gamestate is a chat bot's game store, in automuteus's and ncps's
// shapes: a handler locks a game, changes it, and hands the lock to the
// function that saves the game and lets go; a liveness probe tries another
// worker's lock and lets go at once when it gets it.
package gamestate

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

type Game struct {
	Code    string
	Channel string
	State   string
	Turn    int
}

type store struct {
	rdb    *redis.Client
	locker *redislock.Client
}

func (s *store) load(ctx context.Context, code string) *Game {
	state, _ := s.rdb.Get(ctx, "game:"+code).Result()
	return &Game{Code: code, State: state}
}

// saveAndRelease stores the game, then lets go of the lock it was handed,
// on every path (a nil lock holds nothing to let go). Its caller's region
// ends at the call; the pointer keys it writes after letting go are under
// no lease.
func (s *store) saveAndRelease(ctx context.Context, g *Game, lock *redislock.Lock) {
	if g == nil {
		if lock != nil {
			lock.Release(ctx)
		}
		return
	}
	s.rdb.Set(ctx, "game:"+g.Code, g.State, time.Hour)
	if lock != nil {
		lock.Release(ctx)
	}
	s.rdb.Set(ctx, "game-by-channel:"+g.Channel, g.Code, time.Hour)
}

// EndTurn moves the game on. The whole document it read is stored back
// under a 250 ms lock: a handler paused past it reverts the next holder's
// turn. That write is made inside saveAndRelease, before it lets go, and is
// reported at the call; the ranking it updates afterwards is under no lock.
func (s *store) EndTurn(ctx context.Context, code string) error {
	lock, err := s.locker.Obtain(ctx, "game:"+code+":lock", 250*time.Millisecond, nil)
	if err != nil {
		return err
	}
	g := s.load(ctx, code)
	g.Turn++
	s.saveAndRelease(ctx, g, lock) // want `store.saveAndRelease \(Set at gamestate.go:\d+\) writes to Redis without a fencing token while the bsm/redislock lock taken by Client.Obtain`
	s.rdb.ZAdd(ctx, "active-games", redis.Z{Score: float64(time.Now().Unix()), Member: code})
	return nil
}

// saveAndMaybeRelease lets go only when the game is over: on the other
// path its caller still holds the lock, so it is no release, and as it is
// called only under Pause's lock its write is reported where it is made.
func (s *store) saveAndMaybeRelease(ctx context.Context, g *Game, lock *redislock.Lock, over bool) {
	s.rdb.Set(ctx, "game:"+g.Code, g.State, time.Hour) // want `Set writes to Redis without a fencing token while the bsm/redislock lock taken by Client.Obtain \(line \d+, in store.Pause, under which every call of store.saveAndMaybeRelease is made\)`
	if over {
		lock.Release(ctx)
	}
}

// Pause keeps the lock after saveAndMaybeRelease when the game is not
// over: the channel pointer after it is still written under the lock.
func (s *store) Pause(ctx context.Context, code string, over bool) error {
	lock, err := s.locker.Obtain(ctx, "game:"+code+":lock", 250*time.Millisecond, nil)
	if err != nil {
		return err
	}
	g := s.load(ctx, code)
	g.State = "paused"
	s.saveAndMaybeRelease(ctx, g, lock, over)
	s.rdb.Set(ctx, "game-by-channel:"+g.Channel, g.Code, time.Hour) // want `Set writes to Redis without a fencing token`
	return nil
}

// chunkerLive reports whether another worker holds the chunking lock of
// hash: it tries the lock and lets go at once when it gets it. Its true
// says someone else holds the lock, not that the caller does.
func (s *store) chunkerLive(ctx context.Context, hash string) bool {
	lock, err := s.locker.Obtain(ctx, "chunk:"+hash, time.Minute, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return true
	}
	if err != nil {
		return true // cannot tell: assume a chunker is at work
	}
	lock.Release(ctx)
	return false
}

// Touch records the last access of a NAR that is being chunked: nothing
// is held here, quiet.
func (s *store) Touch(ctx context.Context, hash string) {
	if s.chunkerLive(ctx, hash) {
		s.rdb.Set(ctx, "last-access:"+hash, time.Now().Unix(), 0)
	}
}

// tryChunkLock is a real try-acquire: true says the caller holds the lock.
func (s *store) tryChunkLock(ctx context.Context, hash string) bool {
	_, err := s.locker.Obtain(ctx, "chunk:"+hash, time.Minute, nil)
	return err == nil
}

// Rechunk overwrites the chunk count under the lock tryChunkLock took.
func (s *store) Rechunk(ctx context.Context, hash string, chunks int) {
	if s.tryChunkLock(ctx, hash) {
		s.rdb.Set(ctx, "chunks:"+hash, chunks, 0) // want `Set writes to Redis without a fencing token while the bsm/redislock lock taken by store.tryChunkLock`
	}
}

// get reads a game and stores a blank one when there is none. It hands
// saveAndRelease no lock, so the call lets go of nothing: it is a write,
// made under lockGame's lock, the only one get is called under.
func (s *store) get(ctx context.Context, code string) *Game {
	g := s.load(ctx, code)
	if g.State == "" {
		g.State = "lobby"
		s.saveAndRelease(ctx, g, nil) // want `store.saveAndRelease \(Set at gamestate.go:\d+\) writes to Redis without a fencing token while the bsm/redislock lock taken by Client.Obtain \(line \d+, in store.lockGame, under which every call of store.get is made\)`
	}
	return g
}

// lockGame takes the game's lock and returns it with the game.
func (s *store) lockGame(ctx context.Context, code string) (*redislock.Lock, *Game) {
	lock, err := s.locker.Obtain(ctx, "game:"+code+":lock", 250*time.Millisecond, nil)
	if err != nil {
		return nil, nil
	}
	return lock, s.get(ctx, code)
}

// Join stores the game lockGame returned under its lock, then lets go.
func (s *store) Join(ctx context.Context, code, player string) {
	lock, g := s.lockGame(ctx, code)
	if lock == nil {
		return
	}
	g.State = "joined:" + player
	s.saveAndRelease(ctx, g, lock) // want `store.saveAndRelease \(Set at gamestate.go:\d+\) writes to Redis without a fencing token while the bsm/redislock lock taken by store.lockGame`
}
