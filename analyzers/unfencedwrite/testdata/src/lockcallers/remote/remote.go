// Package remote keeps a state in a remote client: State locks the client,
// writes through it and unlocks it, all through the Client interfaces.
package remote

import "context"

// Client stores one state.
type Client interface {
	Get(ctx context.Context) ([]byte, error)
	Put(ctx context.Context, data []byte) error
	Delete(ctx context.Context) error
}

// ClientLocker is a Client that can be locked.
type ClientLocker interface {
	Client
	Lock(ctx context.Context, who string) (string, error)
	Unlock(ctx context.Context, id string) error
}

// State is the state manager: Lock, Persist, Unlock.
type State struct {
	Client Client
	data   []byte
}

func (s *State) Lock(ctx context.Context, who string) (string, error) {
	if l, ok := s.Client.(ClientLocker); ok {
		return l.Lock(ctx, who)
	}
	return "", nil
}

func (s *State) Unlock(ctx context.Context, id string) error {
	if l, ok := s.Client.(ClientLocker); ok {
		return l.Unlock(ctx, id)
	}
	return nil
}

func (s *State) Write(data []byte) { s.data = data }

func (s *State) Persist(ctx context.Context) error {
	return s.Client.Put(ctx, s.data)
}
