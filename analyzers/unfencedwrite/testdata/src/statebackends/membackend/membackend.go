// Package membackend keeps the state in memory, behind an in-process
// mutex. Its StateMgr locks and persists the State it built over its own
// client: neither the Consul lock nor the Consul or PostgreSQL writes of
// the other backends can run there.
package membackend

import (
	"context"
	"sync"

	"statebackends/remote"
)

type RemoteClient struct {
	mu   sync.Mutex
	data []byte
}

func (c *RemoteClient) Get(ctx context.Context) ([]byte, error) { return c.data, nil }

func (c *RemoteClient) Put(ctx context.Context, data []byte) error {
	c.data = data
	return nil
}

func (c *RemoteClient) Lock(ctx context.Context, who string) (string, error) {
	c.mu.Lock()
	return who, nil
}

func (c *RemoteClient) Unlock(ctx context.Context, id string) error {
	c.mu.Unlock()
	return nil
}

// StateMgr creates the first state under the in-memory lock.
func StateMgr(ctx context.Context) (*remote.State, error) {
	st := remote.NewState(&RemoteClient{})
	id, err := st.Lock(ctx, "init")
	if err != nil {
		return nil, err
	}
	defer st.Unlock(ctx, id)
	st.Write([]byte("{}"))
	return st, st.Persist(ctx)
}
