// Package errwraps takes Consul locks in helpers that fail with
// github.com/pkg/errors: a helper that lets go of its lock only where it
// returns errors.Wrap of an error it found not nil returns holding the lock
// whenever it succeeds.
package errwraps

import (
	"github.com/hashicorp/consul/api"
	"github.com/pkg/errors"
)

// acquire takes the task's lock and returns holding it.
func acquire(cc *api.Client, task string) (*api.Lock, error) {
	l, err := cc.LockKey("tasks/" + task + "/.lock")
	if err != nil {
		return nil, errors.Wrap(err, "lock")
	}
	ch, err := l.Lock(nil)
	if err != nil {
		return nil, errors.Wrapf(err, "lock %s", task)
	}
	if ch == nil {
		return nil, errors.New("lock not acquired")
	}
	return l, nil
}

// countRunning takes the lock and counts the task's running executions;
// when the read fails it lets go and fails, otherwise it returns holding
// the lock.
func countRunning(cc *api.Client, task string) (*api.Lock, int, error) {
	l, err := acquire(cc, task)
	if err != nil {
		return nil, 0, err
	}
	pairs, _, err := cc.KV().List("tasks/"+task+"/running/", nil)
	if err != nil {
		l.Unlock()
		return nil, 0, errors.Wrap(err, "list running executions")
	}
	return l, len(pairs), nil
}

// countRunningStack is countRunning failing with WithStack.
func countRunningStack(cc *api.Client, task string) (*api.Lock, int, error) {
	l, err := acquire(cc, task)
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

// finish removes this execution under the lock countRunning returned.
func finish(cc *api.Client, task, id string) error {
	l, n, err := countRunning(cc, task)
	if err != nil {
		return err
	}
	defer l.Unlock()
	_, err = cc.KV().Delete("tasks/"+task+"/running/"+id, nil) // want `KV.Delete writes to Consul without a fencing token while the Consul lock taken by errwraps.countRunning \(line \d+\) is held`
	if n <= 1 {
		return nil
	}
	return err
}

// finishStack is finish through countRunningStack.
func finishStack(cc *api.Client, task, id string) error {
	l, _, err := countRunningStack(cc, task)
	if err != nil {
		return err
	}
	defer l.Unlock()
	_, err = cc.KV().Delete("tasks/"+task+"/running/"+id, nil) // want `KV.Delete writes to Consul without a fencing token while the Consul lock taken by errwraps.countRunningStack \(line \d+\) is held`
	return err
}

// peek takes the lock to read and lets go before it returns: Wrap of a nil
// error is nil, so it can succeed having let go.
func peek(cc *api.Client, task string) (int, error) {
	l, err := acquire(cc, task)
	if err != nil {
		return 0, err
	}
	pairs, _, err := cc.KV().List("tasks/"+task+"/running/", nil)
	l.Unlock()
	return len(pairs), errors.Wrap(err, "list running executions")
}

// peekChecked lets go where a different error than the one it checked is
// wrapped: the wrapped one may be nil.
func peekChecked(cc *api.Client, task string) (*api.Lock, error) {
	l, err := acquire(cc, task)
	if err != nil {
		return nil, err
	}
	_, _, listErr := cc.KV().List("tasks/"+task+"/running/", nil)
	if err := l.Unlock(); err != nil {
		return nil, errors.Wrap(listErr, "unlock")
	}
	return l, nil
}

// record writes after peek, which holds nothing when it returns.
func record(cc *api.Client, task string) error {
	n, err := peek(cc, task)
	if err != nil {
		return err
	}
	_, err = cc.KV().Put(&api.KVPair{Key: "tasks/" + task + "/seen", Value: []byte{byte(n)}}, nil)
	return err
}

// recordChecked writes after peekChecked, which let go on its way back.
func recordChecked(cc *api.Client, task string) error {
	if _, err := peekChecked(cc, task); err != nil {
		return err
	}
	_, err := cc.KV().Put(&api.KVPair{Key: "tasks/" + task + "/seen"}, nil)
	return err
}
