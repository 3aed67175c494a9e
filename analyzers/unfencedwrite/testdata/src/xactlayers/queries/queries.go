// Package queries is written as sqlc writes its generated code.
package queries

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

type DBTX interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

func New(db DBTX) *Queries {
	return &Queries{db: db}
}

type Queries struct {
	db DBTX
}

func (q *Queries) WithTx(tx pgx.Tx) *Queries {
	return &Queries{db: tx}
}

const markJobsCancelled = `UPDATE jobs SET cancelled = true WHERE job_id = ANY($1::text[])`

func (q *Queries) MarkJobsCancelled(ctx context.Context, ids []string) error {
	_, err := q.db.Exec(ctx, markJobsCancelled, ids)
	return err
}
