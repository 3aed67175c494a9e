// Package sqlstore implements the worker's interface on database/sql.
package sqlstore

import (
	"context"
	"database/sql"
)

type Offsets struct{ db *sql.DB }

func New(db *sql.DB) *Offsets { return &Offsets{db: db} }

func (o *Offsets) Commit(ctx context.Context, stream string, offset int64) error {
	_, err := o.db.ExecContext(ctx, `UPDATE offsets SET value = $2 WHERE stream = $1`, stream, offset)
	return err
}

func (o *Offsets) Load(ctx context.Context, stream string) (int64, error) {
	var v int64
	err := o.db.QueryRowContext(ctx, `SELECT value FROM offsets WHERE stream = $1`, stream).Scan(&v)
	return v, err
}
