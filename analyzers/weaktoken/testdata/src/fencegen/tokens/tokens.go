// Package tokens turns what a lock hands out into fencegen tokens, in
// another package than the writes: facts carry the tokens' origins.
package tokens

import (
	"go.etcd.io/etcd/client/v3/concurrency"

	"fencegen/store"
)

// Revision is the token of a held mutex: the revision it was acquired at.
func Revision(m *concurrency.Mutex) store.Token {
	return store.TokenOf(m.Header().Revision)
}

// Lease is the session's lease ID as a token: not ordered.
func Lease(s *concurrency.Session) store.Token {
	return store.TokenOf(int64(s.Lease()))
}
