package etcdlock

import (
	"context"
	"errors"
	"strconv"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

var errNotLeader = errors.New("no longer the scheduler's leader")

// JobBoard moves job states in STMs while it leads the scheduler
// election (the session watched through its Done channel).
type JobBoard struct {
	cli *clientv3.Client
}

// Dispatch marks a job dispatched in an STM that checks only the job key:
// a leader paused past its session commits over the next leader's state.
func (s *JobBoard) Dispatch(ctx context.Context, job string) error {
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(10))
	if err != nil {
		return err
	}
	defer sess.Close()
	e := concurrency.NewElection(sess, "/election/scheduler")
	if err := e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err = concurrency.NewSTMSerializable(sess.Ctx(), s.cli, func(stm concurrency.STM) error {
		if stm.Get("/jobs/"+job) == "done" {
			return nil
		}
		stm.Put("/jobs/"+job, "dispatched") // want unfencedwrite:"an STM retries when the keys it read change"
		return nil
	})
	return err
}

// Complete reads the election's key in the STM and gives up when it is
// gone, so the commit fails once another node leads.
func (s *JobBoard) Complete(ctx context.Context, job string) error {
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(10))
	if err != nil {
		return err
	}
	defer sess.Close()
	e := concurrency.NewElection(sess, "/election/scheduler")
	if err := e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err = concurrency.NewSTMSerializable(sess.Ctx(), s.cli, func(stm concurrency.STM) error {
		if stm.Rev(e.Key()) == 0 {
			return errNotLeader
		}
		stm.Put("/jobs/"+job, "done")
		stm.Del("/queue/" + job)
		return nil
	})
	return err
}

var errJobExists = errors.New("job exists")

// Enqueue creates the job's record only where the STM finds none, and
// Retry rewrites it only where one exists: the create is decided on what
// the commit compares, the rewrite passes for the next leader's record.
func (s *JobBoard) Enqueue(ctx context.Context, job string) error {
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(10))
	if err != nil {
		return err
	}
	defer sess.Close()
	e := concurrency.NewElection(sess, "/election/scheduler")
	if err := e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err = concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		if stm.Rev("/jobs/"+job) != 0 {
			return errJobExists
		}
		stm.Put("/jobs/"+job, "queued")
		return nil
	}, concurrency.WithAbortContext(sess.Ctx()))
	if err != nil {
		return err
	}
	_, err = concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		if stm.Get("/jobs/"+job) == "" {
			return nil
		}
		stm.Put("/jobs/"+job, "retry") // want unfencedwrite:"an STM retries when the keys it read change"
		return nil
	})
	return err
}

// NextJobID draws the next job ID from a counter in an STM and hands it
// out, and Register creates a job's name, ID and spec keys together where
// the name is free: neither overwrites what another leader wrote (hard
// negatives). CountRun bumps a run count no one is handed: a stale
// leader's bump counts the run twice.
func (s *JobBoard) NextJobID(ctx context.Context) (int64, error) {
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(10))
	if err != nil {
		return 0, err
	}
	defer sess.Close()
	e := concurrency.NewElection(sess, "/election/scheduler")
	if err := e.Campaign(ctx, "node-1"); err != nil {
		return 0, err
	}
	var next int64
	_, err = concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		v := stm.Get("/ids/job")
		if len(v) == 0 {
			stm.Put("/ids/job", "1000")
			next = 1000
			return nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return err
		}
		next = n + 1
		stm.Put("/ids/job", strconv.FormatInt(next, 10))
		return nil
	}, concurrency.WithAbortContext(sess.Ctx()))
	if err != nil {
		return 0, err
	}
	_, err = concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		n, _ := strconv.Atoi(stm.Get("/stats/runs"))
		stm.Put("/stats/runs", strconv.Itoa(n+1)) // want unfencedwrite:"an STM retries when the keys it read change"
		return nil
	})
	return next, err
}

func (s *JobBoard) Register(ctx context.Context, name, id, spec string) error {
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(10))
	if err != nil {
		return err
	}
	defer sess.Close()
	e := concurrency.NewElection(sess, "/election/scheduler")
	if err := e.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	_, err = concurrency.NewSTM(s.cli, func(stm concurrency.STM) error {
		if stm.Get("/names/"+name) != "" {
			return errJobExists
		}
		stm.Put("/names/"+name, id)
		stm.Put("/ids/"+id, name)
		stm.Put("/specs/"+id, spec)
		return nil
	}, concurrency.WithAbortContext(sess.Ctx()))
	return err
}
