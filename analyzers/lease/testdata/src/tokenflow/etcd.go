// Package tokenflow probes the token flow: each probe(x) reports where x
// comes from.
package tokenflow

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"tokenflow/fence"
)

func probe(v any) {}

func etcdSources(ctx context.Context, cli *clientv3.Client, s *concurrency.Session, m *concurrency.Mutex, e *concurrency.Election) {
	if err := m.Lock(ctx); err != nil {
		return
	}
	probe(m.Header().Revision)      // want `monotonic Mutex.Header\(\).Revision`
	probe(m.Header().GetRevision()) // want `monotonic Mutex.Header\(\).GetRevision\(\)`
	probe(e.Rev())                  // want `monotonic Election.Rev\(\)`
	resp, err := cli.Get(ctx, m.Key())
	if err != nil || len(resp.Kvs) == 0 {
		return
	}
	probe(resp.Kvs[0].CreateRevision) // want `monotonic KeyValue.CreateRevision`
	probe(resp.Kvs[0].ModRevision)    // want `monotonic KeyValue.ModRevision`
	probe(resp.Kvs[0].Version)        // want `not-ordered KeyValue.Version`
	probe(int64(s.Lease()))           // want `not-ordered Session.Lease\(\)`
	g, err := cli.Grant(ctx, 10)
	if err != nil {
		return
	}
	probe(g.ID)     // want `not-ordered Lease.Grant\(\).ID`
	probe(m.Key())  // want `not-ordered Mutex.Key\(\)`
	probe(ctx)      // want `unknown`
	probe(int64(7)) // want `unknown`
	m.Unlock(ctx)
}

// A job carries its token in a field: the field has the origin of what the
// package stores into it.
type job struct {
	rev  int64 // want rev:"token monotonic Mutex.Header\\(\\).Revision"
	name string
}

func newJob(m *concurrency.Mutex) *job {
	return &job{rev: m.Header().Revision, name: "j"}
}

func (j *job) token() int64 { return j.rev + 1 } // want token:"token monotonic Mutex.Header\\(\\).Revision"

func throughFieldAndMethod(m *concurrency.Mutex) {
	j := newJob(m)
	probe(j.rev)     // want `monotonic Mutex.Header\(\).Revision`
	probe(j.token()) // want `monotonic Mutex.Header\(\).Revision`
	probe(j.name)    // want `unknown`
}

// Parameters take the origin of what the package's call sites pass.
func writeWith(tok int64) { probe(tok) } // want `monotonic Mutex.Header\(\).Revision`

func throughParam(ctx context.Context, m *concurrency.Mutex) {
	writeWith(m.Header().Revision)
	writeWith(m.Header().Revision * 2)
}

// Closures see what their creator stored into captured variables.
func throughClosure(ctx context.Context, m *concurrency.Mutex, s *concurrency.Session) {
	var tok int64
	tok = m.Header().Revision
	run := func() { probe(tok) } // want `monotonic Mutex.Header\(\).Revision`
	run()
	lease := s.Lease()
	func() { probe(lease) }() // want `not-ordered Session.Lease\(\)`
}

// Phis agree or the answer is unknown.
func throughPhi(m *concurrency.Mutex, e *concurrency.Election, s *concurrency.Session, which bool) {
	var a int64
	if which {
		a = m.Header().Revision
	} else {
		a = e.Rev()
	}
	probe(a) // want `monotonic Mutex.Header\(\).Revision`
	b := int64(s.Lease())
	if which {
		b = e.Rev()
	}
	probe(b) // want `unknown`
}

// Across packages, facts carry the origin of results and fields.
func throughFacts(ctx context.Context, m *concurrency.Mutex) {
	l, err := fence.Acquire(ctx, m)
	if err != nil {
		return
	}
	probe(l.Rev)         // want `monotonic Mutex.Header\(\).Revision`
	probe(l.Token())     // want `monotonic Lease.Token\(\), which returns Mutex.Header\(\).Revision`
	probe(l.Owner)       // want `not-ordered uuid.NewString\(\)`
	probe(fence.Stamp()) // want `not-ordered fence.Stamp\(\), which returns time.Now\(\).UnixNano\(\)`
	l.Mutex.Unlock(ctx)
}

//fencelint:token
func myToken() int64 { return 1 } // want myToken:"lock role token"

func directive() {
	probe(myToken()) // want `monotonic tokenflow.myToken\(\)`
}
