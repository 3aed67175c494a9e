// Package remote is reduced from OpenTofu's remote state: a State over a
// Client interface that every backend implements in its own package.
// State.Lock and State.Persist do what the Client they wrap does, and
// only the backend that builds the State knows which Client that is.
package remote

import "context"

// Client stores one state.
type Client interface {
	Get(ctx context.Context) ([]byte, error)
	Put(ctx context.Context, data []byte) error
}

// ClientLocker is a Client that can lock its state.
type ClientLocker interface {
	Client
	Lock(ctx context.Context, who string) (string, error)
	Unlock(ctx context.Context, id string) error
}

// State is the state manager every backend hands out.
type State struct {
	Client Client
	data   []byte
}

func NewState(c Client) *State { return &State{Client: c} }

func (s *State) Lock(ctx context.Context, who string) (string, error) {
	if c, ok := s.Client.(ClientLocker); ok {
		return c.Lock(ctx, who)
	}
	return "", nil
}

func (s *State) Unlock(ctx context.Context, id string) error {
	if c, ok := s.Client.(ClientLocker); ok {
		return c.Unlock(ctx, id)
	}
	return nil
}

func (s *State) Write(data []byte) { s.data = data }

func (s *State) Persist(ctx context.Context) error { return s.Client.Put(ctx, s.data) }
