// Package dbutil writes rows in bulk on the transaction it is handed.
package dbutil

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Upsert replaces the rows of table with records.
func Upsert(ctx context.Context, tx pgx.Tx, table string, records []any) error {
	_, err := tx.Exec(ctx, "INSERT INTO "+table+" SELECT * FROM tmp ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state")
	return err
}

// UpsertRecords is Upsert for typed records.
func UpsertRecords[T any](ctx context.Context, tx pgx.Tx, table string, records []T) error {
	if len(records) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, "INSERT INTO "+table+" SELECT * FROM tmp ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state")
	return err
}
