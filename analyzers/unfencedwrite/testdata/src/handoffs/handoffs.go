// Package handoffs is a dispatcher that takes a Consul lock per execution
// and hands the execution, lock and all, to a pool of workers over a
// channel: the worker that receives it runs the work and lets the lock go.
package handoffs

import (
	"github.com/hashicorp/consul/api"
)

// execution carries the lock its dispatcher took to the worker that runs it.
type execution struct {
	id   string
	lock *api.Lock
}

func (e *execution) release() {
	if e.lock != nil {
		e.lock.Unlock()
	}
}

type dispatcher struct {
	client  *api.Client
	work    chan *execution
	stop    chan struct{}
	reports chan report
}

// dispatch locks each execution and hands it over, still locked.
func (d *dispatcher) dispatch(ids []string) {
	for _, id := range ids {
		lock, err := d.client.LockKey("executions/" + id + "/.lock")
		if err != nil {
			continue
		}
		lost, err := lock.Lock(d.stop)
		if err != nil || lost == nil {
			continue
		}
		e := &execution{id: id}
		e.lock = lock
		d.work <- e
	}
}

// worker runs what it receives under the dispatcher's lock.
func (d *dispatcher) worker() {
	for {
		select {
		case e := <-d.work:
			d.run(e)
		case <-d.stop:
			return
		}
	}
}

// rangeWorker receives with range: the same.
func (d *dispatcher) rangeWorker() {
	for e := range d.work {
		d.run(e)
	}
}

func (d *dispatcher) run(e *execution) {
	defer e.release()
	d.client.KV().Put(&api.KVPair{Key: "executions/" + e.id + "/status", Value: []byte("done")}, nil) // want `KV.Put writes to Consul without a fencing token while the Consul lock taken by Lock.Lock at handoffs.go:36 and handed over with the execution sent from handoffs.go \(line 42, in dispatcher.dispatch, under which every call of dispatcher.run is made\) is held`
}

// A report names the lock it was made under but nothing lets that lock go
// through it: sending one hands no lock over. Every report is sent while a
// lock is held, though, so what the reporter does with one is work done
// under that lock (chanwork.go), as a stale publisher's report is.
type report struct {
	id   string
	lock *api.Lock
}

func (d *dispatcher) publish(id string) {
	lock, err := d.client.LockKey("reports/" + id)
	if err != nil {
		return
	}
	if _, err := lock.Lock(d.stop); err != nil {
		return
	}
	defer lock.Unlock()
	d.reports <- report{id: id, lock: lock}
}

func (d *dispatcher) reporter() {
	for r := range d.reports {
		d.client.KV().Put(&api.KVPair{Key: "reports/" + r.id, Value: []byte("sent")}, nil) // want `KV.Put writes to Consul without a fencing token while the Consul lock taken by Lock.Lock \(line \d+, in dispatcher.publish, under which every send on reports is made\) is held`
	}
}

// An execution sent after its lock was let go carries none (hard negative):
// the lease is not held where the value is sent.
func (d *dispatcher) requeue(id string) {
	lock, err := d.client.LockKey("executions/" + id + "/.lock")
	if err != nil {
		return
	}
	if _, err := lock.Lock(d.stop); err != nil {
		return
	}
	e := &execution{id: id, lock: lock}
	lock.Unlock()
	e.lock = nil
	d.work <- e
}
