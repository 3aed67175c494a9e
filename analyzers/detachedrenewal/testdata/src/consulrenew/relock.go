package consulrenew

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/consul/api"
)

// remoteClient is reduced from OpenTofu's Consul state backend: lock
// creates a session whose RenewPeriodic error is dropped, takes a Consul
// lock on it, and a monitor goroutine selects on the lock's channel and
// locks again when it closes. Consul's Lock watches the session and closes
// that channel when the session is gone, so the dropped error is heard.
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
	go session.RenewPeriodic("15s", id, nil, ctx.Done())
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

// leakyClient is the same without the monitor: the lock's channel is only
// tested for nil, so the dropped renewal error is a bug, reported once at
// the go statement that starts the renewal and not again at the retry
// goroutine that reaches it through lock.
type leakyClient struct {
	consul *api.Client
	db     *syncer
}

func (c *leakyClient) createSession() (string, error) {
	session := c.consul.Session()
	id, _, err := session.Create(&api.SessionEntry{TTL: "15s"}, nil)
	if err != nil {
		return "", err
	}
	go session.RenewPeriodic("15s", id, nil, nil) // want `the error of Session.RenewPeriodic \(line 75\) is dropped`
	return id, nil
}

func (c *leakyClient) lock(ctx context.Context, rows []string) error {
	id, err := c.createSession()
	if err != nil {
		return err
	}
	l, err := c.consul.LockOpts(&api.LockOptions{Key: "locks/state", Session: id})
	if err != nil {
		return err
	}
	lockCh, err := l.Lock(nil) // want `nothing reads the channel Lock.Lock returns`
	if err != nil || lockCh == nil {
		go func() {
			time.Sleep(time.Minute)
			_ = c.lock(ctx, rows)
		}()
		return errLost
	}
	return c.db.write(ctx, rows)
}
