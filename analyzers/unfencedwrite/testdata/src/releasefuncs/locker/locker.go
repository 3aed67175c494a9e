// Package locker is reduced from Harness's locker service: LockBranch takes
// a redsync mutex and hands the caller its release as a func value.
package locker

import (
	"context"
	"fmt"

	"github.com/go-redsync/redsync/v4"
)

type Locker struct{ rs *redsync.Redsync }

func (l Locker) lock(ctx context.Context, key string) (func(), error) {
	m := l.rs.NewMutex(key)
	if err := m.LockContext(ctx); err != nil {
		return nil, fmt.Errorf("failed to lock the mutex: %w", err)
	}
	unlock := func() { m.UnlockContext(context.WithoutCancel(ctx)) }
	return unlock, nil
}

// LockBranch locks changes of a branch; the caller calls the func it
// returns to let go.
func (l Locker) LockBranch(ctx context.Context, repoID int64, branch string) (func(), error) {
	return l.lock(ctx, fmt.Sprintf("%d/branch/%s", repoID, branch))
}

// LockWithNote returns a func that logs, not one that lets go.
func (l Locker) LockWithNote(ctx context.Context, key string) (func(string), error) {
	m := l.rs.NewMutex(key)
	if err := m.LockContext(ctx); err != nil {
		return nil, err
	}
	return func(note string) { fmt.Println(key, note) }, nil
}

// LockRepo hands the caller a release that takes a context and reports
// whether the unlock reached Redis.
func (l Locker) LockRepo(ctx context.Context, key string) (func(context.Context) error, error) {
	m := l.rs.NewMutex("repo/" + key)
	if err := m.LockContext(ctx); err != nil {
		return nil, err
	}
	return func(ctx context.Context) error {
		_, err := m.UnlockContext(ctx)
		return err
	}, nil
}

// LockLoaded takes the space lock, loads what the caller needs, and hands
// the release over only when it succeeds: a deferred closure lets go on
// every failure, while the flag it tests is still set (vearch's
// loadLockedSpace).
func (l Locker) LockLoaded(ctx context.Context, key string, load func() error) (func(), error) {
	m := l.rs.NewMutex("space/" + key)
	if err := m.LockContext(ctx); err != nil {
		return nil, err
	}
	unlock := func() { m.UnlockContext(context.WithoutCancel(ctx)) }
	release := true
	defer func() {
		if release {
			unlock()
		}
	}()
	if err := load(); err != nil {
		return nil, fmt.Errorf("loading %s: %w", key, err)
	}
	release = false
	return unlock, nil
}

// LockDone hands its release over once done is set, the other way round.
func (l Locker) LockDone(ctx context.Context, key string, load func() error) (unlock func(), err error) {
	m := l.rs.NewMutex("done/" + key)
	if err := m.LockContext(ctx); err != nil {
		return nil, err
	}
	done := false
	defer func() {
		if !done {
			m.UnlockContext(context.WithoutCancel(ctx))
		}
	}()
	if err := load(); err != nil {
		return nil, err
	}
	done = true
	return func() { m.UnlockContext(context.WithoutCancel(ctx)) }, nil
}

// LockChecked lets go in its deferred closure whatever the flag says at
// the end: it sets it back before it returns, so it hands over nothing.
func (l Locker) LockChecked(ctx context.Context, key string) (func(), error) {
	m := l.rs.NewMutex("checked/" + key)
	if err := m.LockContext(ctx); err != nil {
		return nil, err
	}
	unlock := func() { m.UnlockContext(context.WithoutCancel(ctx)) }
	release := true
	defer func() {
		if release {
			unlock()
		}
	}()
	release = false
	release = true
	return unlock, nil
}
