package bench_test

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgxpool"
)

// fencedUpdate is hand-written until the generated package exists.
func fencedUpdate(ctx context.Context, pool *pgxpool.Pool, token, id int64, body string) error {
	tag, err := pool.Exec(ctx, "UPDATE docs SET body = $2, fence = $3 WHERE id = $1 AND (fence IS NULL OR fence <= $3)", id, body, token)
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		return errors.New("stale")
	}
	return nil
}
