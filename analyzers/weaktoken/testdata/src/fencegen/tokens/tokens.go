// Package tokens turns what a lock hands out into fencegen tokens, in
// another package than the writes: facts carry the tokens' origins.
package tokens

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
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

// Draw draws the next number of a sequence: a counter, drawn late or not
// depending on where it is called.
func Draw(ctx context.Context, pool *pgxpool.Pool) (int64, error) {
	var n int64
	err := pool.QueryRow(ctx, "SELECT nextval('fence_token_seq')").Scan(&n)
	return n, err
}
