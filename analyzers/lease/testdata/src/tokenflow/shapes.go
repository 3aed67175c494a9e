package tokenflow

import (
	"context"
	"time"

	"github.com/go-redsync/redsync/v4"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Generic code, recursion, method values, channels, maps and embedding:
// the walk answers what it can follow and unknown for the rest.

type pair[T any] struct{ a, b T }

func first[T any](p pair[T]) T { return p.a }

func generic(m *concurrency.Mutex) {
	p := pair[int64]{a: m.Header().Revision}
	probe(p.a)         // want `monotonic Mutex.Header\(\).Revision`
	probe(first(p))    // want `unknown`
	probe(max(p.a, 3)) // want `unknown`
}

// countdown is recursive: the cycle through its own result adds nothing.
func countdown(n int64, m *redsync.Mutex) string { // want countdown:"token not-ordered Mutex.Value\\(\\)"
	if n == 0 {
		return m.Value()
	}
	return countdown(n-1, m)
}

func recursion(m *redsync.Mutex) {
	probe(countdown(3, m)) // want `not-ordered Mutex.Value\(\)`
}

type holder struct{ m *redsync.Mutex }

func (h holder) value() string { return h.m.Value() } // want value:"token not-ordered Mutex.Value\\(\\)"

func methodValue(h holder) {
	f := h.value
	probe(f())       // want `unknown`
	probe(h.value()) // want `not-ordered Mutex.Value\(\)`
}

func channels(ctx context.Context, ch chan int64, m *concurrency.Mutex) {
	go func() { ch <- m.Header().Revision }()
	probe(<-ch) // want `unknown`
	tokens := map[string]int64{"a": m.Header().Revision}
	probe(tokens["a"]) // want `unknown`
	var arr [2]int64
	arr[0] = m.Header().Revision
	probe(arr[0]) // want `unknown`
	select {
	case v := <-ch:
		probe(v) // want `unknown`
	case <-ctx.Done():
	}
}

type base struct {
	stamp int64 // want stamp:"token not-ordered time.Now\\(\\).Unix\\(\\)"
}

type derived struct {
	base
	name string
}

func embedding() {
	d := derived{base: base{stamp: time.Now().Unix()}}
	probe(d.stamp) // want `not-ordered time.Now\(\).Unix\(\)`
	var x any = d.stamp
	probe(x.(int64)) // want `not-ordered time.Now\(\).Unix\(\)`
}

func loops(m *concurrency.Mutex, n int) {
	tok := m.Header().Revision
	for i := 0; i < n; i++ {
		tok += 1
	}
	probe(tok) // want `monotonic Mutex.Header\(\).Revision`
	neg := -m.Header().Revision
	probe(neg) // want `unknown`
	diff := 100 - m.Header().Revision
	probe(diff) // want `unknown`
}
