package sqllock

import (
	"context"

	"github.com/go-redsync/redsync/v4"
	"github.com/jackc/pgx/v5"
)

// Import loads a day's rates under a redsync mutex through pgx batches and
// COPY, neither of which carries a fence.
func Import(ctx context.Context, rs *redsync.Redsync, conn *pgx.Conn, day string, rates [][]any) error {
	m := rs.NewMutex("import:" + day)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(context.Background())
	b := &pgx.Batch{}
	b.Queue(`DELETE FROM rates WHERE day = $1`, day)                    // want unfencedwrite:"without a fencing token"
	b.Queue(`UPDATE imports SET state = 'loading' WHERE day = $1`, day) // want unfencedwrite:"without a fencing token"
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		return err
	}
	_, err := conn.CopyFrom(ctx, pgx.Identifier{"rates"}, []string{"day", "currency", "rate"}, pgx.CopyFromRows(rates)) // want unfencedwrite:"without a fencing token"
	return err
}
