package etcdlock

import (
	"context"
	"errors"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// JobLock is a lock taken by hand: a lease, then a transaction that puts
// the lock key with it only if the key does not exist.
type JobLock struct {
	cli *clientv3.Client
}

var errJobBusy = errors.New("job: locked elsewhere")

// getLock reports whether the lock on job was taken with the lease id.
func (j *JobLock) getLock(ctx context.Context, job string, id clientv3.LeaseID) (bool, error) {
	key := "/locks/jobs/" + job
	resp, err := j.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, "", clientv3.WithLease(id))).
		Commit()
	if err != nil {
		return false, err
	}
	return resp.Succeeded, nil
}

// Run publishes the job's result with a plain Put under the lock.
func (j *JobLock) Run(ctx context.Context, job, result string) error {
	lease, err := j.cli.Grant(ctx, 30)
	if err != nil {
		return err
	}
	defer j.cli.Revoke(context.Background(), lease.ID)
	ok, err := j.getLock(ctx, job, lease.ID)
	if err != nil {
		return err
	}
	if !ok {
		return errJobBusy
	}
	_, err = j.cli.Put(ctx, "/jobs/"+job+"/result", result) // want unfencedwrite:"while the etcd lock taken by JobLock.getLock"
	return err
}

// Seed creates the job's record if absent, with no lease: a create, not
// a lock, so the write after it holds nothing (a hard negative).
func (j *JobLock) Seed(ctx context.Context, job, spec string) error {
	key := "/jobs/" + job + "/spec"
	resp, err := j.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, spec)).
		Commit()
	if err != nil || !resp.Succeeded {
		return err
	}
	_, err = j.cli.Put(ctx, "/jobs/"+job+"/seeded", "1")
	return err
}
