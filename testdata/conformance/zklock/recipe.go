package zklock

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
)

// ZKClient is the part of *zk.Conn a hand-made lock and the tag store use,
// kept behind an interface so that tests can pass a fake.
type ZKClient interface {
	Children(string) ([]string, *zk.Stat, error)
	CreateProtectedEphemeralSequential(string, []byte, []zk.ACL) (string, error)
	Get(string) ([]byte, *zk.Stat, error)
	Set(string, []byte, int32) (*zk.Stat, error)
	Delete(string, int32) error
}

// RecipeLock is the ZooKeeper lock recipe written by hand: claim an
// ephemeral sequential node, hold the lock while the claim is the lowest.
type RecipeLock struct {
	c    ZKClient
	node string
}

// NewRecipeLock wires the real connection in.
func NewRecipeLock(servers []string) (*RecipeLock, error) {
	conn, _, err := zk.Connect(servers, 10*time.Second)
	if err != nil {
		return nil, err
	}
	return &RecipeLock{c: conn}, nil
}

func (l *RecipeLock) Lock(ctx context.Context) error {
	node, err := l.c.CreateProtectedEphemeralSequential("/locks/tags/lock-", nil, zk.WorldACL(zk.PermAll))
	if err != nil {
		return err
	}
	for {
		children, _, err := l.c.Children("/locks/tags")
		if err != nil {
			return err
		}
		sort.Strings(children)
		if len(children) > 0 && strings.HasSuffix(node, children[0]) {
			l.node = node
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (l *RecipeLock) Unlock() error { return l.c.Delete(l.node, -1) }

// MergeTags merges under the recipe lock and writes back with version -1.
func MergeTags(ctx context.Context, l *RecipeLock, c ZKClient, tags map[string]string) error {
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.Unlock()
	data, stat, err := c.Get("/tags/topic")
	if err != nil {
		return err
	}
	merged := map[string]string{}
	_ = json.Unmarshal(data, &merged)
	for k, v := range tags {
		merged[k] = v
	}
	out, _ := json.Marshal(merged)
	if _, err := c.Set("/tags/topic.previous", data, -1); err != nil { // want unfencedwrite:"without a fencing token"
		return err
	}
	_, err = c.Set("/tags/topic", out, stat.Version) // the version read: refused after anyone's write
	return err
}
