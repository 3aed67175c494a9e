// Package consulbackend keeps the state in Consul's KV store under a Consul
// lock; its Put writes with no fence.
package consulbackend

import (
	"context"
	"errors"

	"github.com/hashicorp/consul/api"

	"statebackends/remote"
)

type RemoteClient struct {
	client *api.Client
	lock   *api.Lock
}

func (c *RemoteClient) Get(ctx context.Context) ([]byte, error) {
	pair, _, err := c.client.KV().Get("state", nil)
	if err != nil || pair == nil {
		return nil, err
	}
	return pair.Value, nil
}

func (c *RemoteClient) Put(ctx context.Context, data []byte) error {
	_, err := c.client.KV().Put(&api.KVPair{Key: "state", Value: data}, nil) // want `KV.Put writes to Consul without a fencing token while the Consul lock taken by Lock.Lock in RemoteClient.Lock, which the RemoteClient keeps until RemoteClient.Unlock \(line 37\) is held`
	return err
}

func (c *RemoteClient) Lock(ctx context.Context, who string) (string, error) {
	l, err := c.client.LockOpts(&api.LockOptions{Key: "state/.lock"})
	if err != nil {
		return "", err
	}
	lost, err := l.Lock(nil)
	if err != nil || lost == nil {
		return "", errors.New("state is locked")
	}
	c.lock = l
	return who, nil
}

func (c *RemoteClient) Unlock(ctx context.Context, id string) error { return c.lock.Unlock() }

// StateMgr creates the first state under the Consul lock. The client keeps
// its lock between Lock and Unlock (c.lock), so its Put is reported in Put,
// where the fence belongs, and not again at this call.
func StateMgr(ctx context.Context, client *api.Client) (*remote.State, error) {
	st := remote.NewState(&RemoteClient{client: client})
	id, err := st.Lock(ctx, "init")
	if err != nil {
		return nil, err
	}
	defer st.Unlock(ctx, id)
	st.Write([]byte("{}"))
	return st, st.Persist(ctx)
}
