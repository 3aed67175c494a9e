package consulrenew

import (
	"context"
	"sync"

	"github.com/hashicorp/consul/api"
)

// remoteClient is reduced from OpenTofu's Consul state backend: lock
// creates a session whose RenewPeriodic error is dropped, and a monitor
// goroutine calls lock again when the lock is lost. The dropped error is
// one bug: it is reported once, at the go statement that starts the
// renewal, not again at the monitor goroutine that reaches it through lock.
type remoteClient struct {
	consul *api.Client
	db     *syncer
	mu     sync.Mutex
	lockCh <-chan struct{}
	cancel context.CancelFunc
}

func (c *remoteClient) createSession() (string, error) {
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	session := c.consul.Session()
	id, _, err := session.Create(&api.SessionEntry{TTL: "15s"}, nil)
	if err != nil {
		return "", err
	}
	go session.RenewPeriodic("15s", id, nil, ctx.Done()) // want `the error of Session.RenewPeriodic \(line 31\) is dropped`
	return id, nil
}

func (c *remoteClient) lock(ctx context.Context, rows []string) error {
	id, err := c.createSession()
	if err != nil {
		return err
	}
	l, err := c.consul.LockOpts(&api.LockOptions{Key: "locks/state", Session: id})
	if err != nil {
		return err
	}
	lockCh, err := l.Lock(make(chan struct{}))
	if err != nil || lockCh == nil {
		return errLost
	}
	c.lockCh = lockCh
	go func() {
		<-c.lockCh
		c.mu.Lock()
		defer c.mu.Unlock()
		c.cancel()
		_ = c.lock(ctx, rows)
	}()
	return c.db.write(ctx, rows)
}
