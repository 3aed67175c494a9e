package consullock

import (
	"github.com/hashicorp/consul/api"
	"github.com/pkg/errors"
)

// taskLock takes a task's lock and returns holding it, failing with
// github.com/pkg/errors.
func taskLock(cc *api.Client, task string) (*api.Lock, error) {
	l, err := cc.LockKey("tasks/" + task + "/.lock")
	if err != nil {
		return nil, errors.Wrap(err, "lock")
	}
	ch, err := l.Lock(nil) // want detachedrenewal:"never hears"
	if err != nil {
		return nil, errors.Wrapf(err, "lock %s", task)
	}
	if ch == nil {
		return nil, errors.New("lock not acquired")
	}
	return l, nil
}

// countRunning lets go of the lock only where it returns errors.Wrap of
// the error it found not nil: it returns holding the lock when it succeeds.
func countRunning(cc *api.Client, task string) (*api.Lock, int, error) {
	l, err := taskLock(cc, task)
	if err != nil {
		return nil, 0, err
	}
	pairs, _, err := cc.KV().List("tasks/"+task+"/running/", nil)
	if err != nil {
		l.Unlock()
		return nil, 0, errors.WithStack(err)
	}
	return l, len(pairs), nil
}

// finishExecution deletes its execution under the lock countRunning
// returned.
func finishExecution(cc *api.Client, task, id string) error {
	l, _, err := countRunning(cc, task)
	if err != nil {
		return err
	}
	defer l.Unlock()
	_, err = cc.KV().Delete("tasks/"+task+"/running/"+id, nil) // want unfencedwrite:"countRunning"
	return err
}

// peekRunning lets go before it returns: Wrap of a nil error is nil, so it
// can succeed having let go.
func peekRunning(cc *api.Client, task string) (int, error) {
	l, err := taskLock(cc, task)
	if err != nil {
		return 0, err
	}
	pairs, _, err := cc.KV().List("tasks/"+task+"/running/", nil)
	l.Unlock()
	return len(pairs), errors.Wrap(err, "list running executions")
}

// recordSeen writes after peekRunning, which holds nothing when it returns.
func recordSeen(cc *api.Client, task string) error {
	n, err := peekRunning(cc, task)
	if err != nil {
		return err
	}
	_, err = cc.KV().Put(&api.KVPair{Key: "tasks/" + task + "/seen", Value: []byte{byte(n)}}, nil)
	return err
}
