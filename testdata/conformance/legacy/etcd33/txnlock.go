package etcd33

import (
	"context"
	"errors"

	"github.com/coreos/etcd/clientv3"
)

var errBusy = errors.New("job: locked elsewhere")

// RunJob takes cronsun's hand-rolled lock (a lease, then a create-if-absent
// of the lock key with it) and writes the job's status with a plain Put.
func (c *Compactor) RunJob(ctx context.Context, job, status string) error {
	lease, err := c.cli.Grant(ctx, 30)
	if err != nil {
		return err
	}
	key := "/locks/jobs/" + job
	resp, err := c.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, "", clientv3.WithLease(lease.ID))).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errBusy
	}
	_, err = c.cli.Put(ctx, "/jobs/"+job+"/status", status) // want unfencedwrite:"while the etcd lock taken by Txn.Commit"
	if err != nil {
		return err
	}
	_, err = c.cli.Delete(ctx, key)
	return err
}
