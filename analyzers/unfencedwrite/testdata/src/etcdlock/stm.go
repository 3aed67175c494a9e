package etcdlock

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// A workflow scheduler (gophercron's) leads through an etcd election and
// moves task states in STMs.

type taskState struct {
	Status string
	Runs   int
}

type scheduler struct {
	cli *clientv3.Client
	e   *concurrency.Election
}

var errNotLeader = errors.New("no longer the leader")

// schedule decides from a plain read, then marks the task starting in an
// STM: the STM re-reads the task, but whatever it finds it sets STARTING,
// so a leader paused past its session undoes the next leader's progress.
func (s *scheduler) schedule(ctx context.Context, key string) error {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	resp, err := s.cli.Get(ctx, key)
	if err != nil || len(resp.Kvs) > 0 && string(resp.Kvs[0].Value) != "idle" {
		return err
	}
	_, err = concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		var st taskState
		if v := stm.Get(key); v != "" {
			if err := json.Unmarshal([]byte(v), &st); err != nil {
				return err
			}
		}
		st.Status, st.Runs = "STARTING", st.Runs+1
		b, _ := json.Marshal(st)
		stm.Put(key, string(b)) // want `STM.Put \(an STM retries when the keys it read change, not when the lease is lost\) writes to etcd without a fencing token while the etcd lock taken by Election.Campaign \(line 32\) is held: .*read the lease's key in the STM`
		return nil
	})
	return err
}

// finish drops the task's queue entry in an STM that reads the election's
// key first and gives up when it is gone: the commit fails once the key
// changes.
func (s *scheduler) finish(ctx context.Context, key string) error {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err := concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		if stm.Rev(s.e.Key()) == 0 {
			return errNotLeader
		}
		stm.Del("/queue/" + key)
		stm.Put(key, "done")
		return nil
	})
	return err
}

// requeue reads the election's key too, but only to log it: nothing gives
// up when it is gone.
func (s *scheduler) requeue(ctx context.Context, key string, logf func(string, ...any)) error {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err := concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		logf("leader %s", stm.Get(s.e.Key()))
		stm.Del("/queue/" + key) // want `STM.Del \(an STM retries when the keys it read change, not when the lease is lost\) writes to etcd without a fencing token`
		return nil
	})
	return err
}

// archive reads the election's key with Get (its keys are variadic) and
// gives up when it is empty: fenced as finish is.
func (s *scheduler) archive(ctx context.Context, key string) error {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err := concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		if stm.Get(s.e.Key()) == "" {
			return errNotLeader
		}
		stm.Put("/archive/"+key, "1")
		return nil
	})
	return err
}

var (
	errExists     = errors.New("task exists")
	errNotRunning = errors.New("task not running")
	errMissing    = errors.New("no such task")
)

// create makes the task's record only where the STM finds none: a stale
// leader finds the next leader's record and gives up, or its commit fails
// and the STM runs again and finds it.
func (s *scheduler) create(ctx context.Context, key string) error {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err := concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		if stm.Get(key) != "" {
			return errExists
		}
		stm.Put(key, "idle")
		return nil
	})
	return err
}

// createByRev tells the absent key by its revision.
func (s *scheduler) createByRev(ctx context.Context, key string) error {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err := concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		if !(stm.Rev(key) == 0) {
			return errExists
		}
		stm.Put(key, "idle")
		return nil
	})
	return err
}

// complete moves the task from running to done, checked in the STM.
func (s *scheduler) complete(ctx context.Context, key string) error {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err := concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		if stm.Get(key) != "running" {
			return errNotRunning
		}
		stm.Put(key, "done")
		return nil
	})
	return err
}

// restart writes the task only when it exists: the next leader's write
// leaves it existing, so a stale restart lands over it.
func (s *scheduler) restart(ctx context.Context, key string) error {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err := concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		if stm.Get(key) == "" {
			return errMissing
		}
		stm.Put(key, "STARTING") // want `STM.Put \(an STM retries when the keys it read change, not when the lease is lost\) writes to etcd without a fencing token`
		return nil
	})
	return err
}

// createBeside checks one key and creates another: its own absence was
// never read.
func (s *scheduler) createBeside(ctx context.Context, key string) error {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err := concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		if stm.Get(key) != "" {
			return errExists
		}
		stm.Put(key+"/owner", "node-1") // want `STM.Put \(an STM retries when the keys it read change, not when the lease is lost\) writes to etcd without a fencing token`
		return nil
	})
	return err
}

// dispatch skips a finished task and dispatches any other: a task the
// next leader moved on passes the check too, and is dispatched again.
func (s *scheduler) dispatch(ctx context.Context, key string) error {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err := concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		if stm.Get(key) == "done" {
			return nil
		}
		stm.Put(key, "dispatched") // want `STM.Put \(an STM retries when the keys it read change, not when the lease is lost\) writes to etcd without a fencing token`
		return nil
	})
	return err
}

// nextID draws the next workflow ID from a counter in an STM and hands it
// out: a stale leader draws a number no one else gets, and the counter's
// first value is written only where the STM finds none (hard negatives).
func (s *scheduler) nextID(ctx context.Context, key string, base int64) (int64, error) {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return 0, err
	}
	var next int64
	_, err := concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		v := stm.Get(key)
		if len(v) == 0 {
			stm.Put(key, strconv.FormatInt(base, 10))
			next = base
			return nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return err
		}
		next = n + 1
		stm.Put(key, strconv.FormatInt(next, 10))
		return nil
	})
	return next, err
}

// bumpRuns counts a run: the count is handed to no one, and a stale
// leader's bump counts the run twice. (Its literal captures nothing, so
// it is no closure: it runs under the lease all the same.)
func (s *scheduler) bumpRuns(ctx context.Context, key string) error {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err := concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		n, _ := strconv.Atoi(stm.Get("/stats/runs"))
		stm.Put("/stats/runs", strconv.Itoa(n+1)) // want `STM.Put \(an STM retries when the keys it read change, not when the lease is lost\) writes to etcd without a fencing token`
		return nil
	})
	return err
}

// register creates a task's name, ID and spec keys together, only where
// the name is free: the spec is part of the name's creation (hard
// negatives).
func (s *scheduler) register(ctx context.Context, name, id, spec string) error {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err := concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		if stm.Get("/names/"+name) != "" {
			return errExists
		}
		stm.Put("/names/"+name, id)
		stm.Put("/ids/"+id, name)
		stm.Put("/specs/"+id, spec)
		return nil
	})
	return err
}

// initOrTouch creates the task where the STM finds none, and otherwise
// marks the one it finds: that mark lands over the next leader's state.
func (s *scheduler) initOrTouch(ctx context.Context, key string) error {
	if err := s.e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err := concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		if stm.Get(key) == "" {
			stm.Put(key, "idle")
		} else {
			stm.Put(key, "touched") // want `STM.Put \(an STM retries when the keys it read change, not when the lease is lost\) writes to etcd without a fencing token`
		}
		return nil
	})
	return err
}
