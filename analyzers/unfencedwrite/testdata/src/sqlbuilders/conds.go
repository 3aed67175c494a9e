package sqlbuilders

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// A garbage collector (SpiceDB's shape) deletes in batches through a
// helper that takes the condition: the rows are chosen in a WITH query,
// then deleted by key. Each call is read with its own condition.
type collector struct {
	pool *sql.DB
	conn *sql.Conn
}

func (c *collector) batchDelete(ctx context.Context, table string, filter sq.Sqlizer) (int64, error) {
	q, args, err := sq.Select("id").From(table).Where(filter).Limit(1000).ToSql()
	if err != nil {
		return 0, err
	}
	query := fmt.Sprintf(`WITH rows AS (%[1]s)
		DELETE FROM %[2]s
		WHERE (id) IN (SELECT id FROM rows);`, q, table)
	var deleted int64
	for {
		res, err := c.pool.ExecContext(ctx, query, args...)
		if err != nil {
			return deleted, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return deleted, err
		}
		deleted += n
		if n < 1000 {
			return deleted, nil
		}
	}
}

// deleteExpired passes conditions on to a helper of its own.
func (c *collector) deleteExpired(ctx context.Context, table string, before time.Time) (int64, error) {
	return c.batchDelete(ctx, table, sq.Lt{"expires_at": before})
}

// deleteWhere passes its caller's condition through.
func (c *collector) deleteWhere(ctx context.Context, table string, filter sq.Sqlizer) (int64, error) {
	return c.batchDelete(ctx, table, filter)
}

// collect deletes expired rows and rows dead before a cutoff: what expired
// stays expired, so a paused holder's batch deletes nothing the next
// holder kept.
func (c *collector) collect(ctx context.Context, window time.Duration) error {
	if err := lock(ctx, c.conn, 42); err != nil {
		return err
	}
	cutoff := time.Now().Add(-window)
	if _, err := c.batchDelete(ctx, "relationships", sq.Lt{"expires_at": cutoff}); err != nil {
		return err
	}
	if _, err := c.batchDelete(ctx, "namespaces", sq.And{sq.LtOrEq{"deleted_at": cutoff}, sq.Lt{"created_at": cutoff}}); err != nil {
		return err
	}
	if _, err := c.deleteExpired(ctx, "sessions", cutoff); err != nil {
		return err
	}
	_, err := c.deleteWhere(ctx, "tokens", sq.Lt{"expires_at": cutoff})
	return err
}

// evict deletes by owner and by a number that is not a time: the next
// holder's rows go too.
func (c *collector) evict(ctx context.Context, owner string, below int64) error {
	if err := lock(ctx, c.conn, 42); err != nil {
		return err
	}
	if _, err := c.batchDelete(ctx, "relationships", sq.Eq{"owner": owner}); err != nil { // want `collector.batchDelete \(DELETE relationships\) \(DB.ExecContext \(DELETE <run-time name>\) at conds.go:30\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := c.batchDelete(ctx, "relationships", sq.Lt{"expires_at": time.Now()}); err != nil {
		return err
	}
	_, err := c.deleteWhere(ctx, "transactions", sq.Lt{"xid": below}) // want `collector.deleteWhere \(DELETE transactions\) \(.*via collector.batchDelete.*\) writes to SQL database without a fencing token`
	return err
}

// evictEither deletes what has expired or is the owner's: an Or is only as
// safe as its least safe arm.
func (c *collector) evictEither(ctx context.Context, owner string) error {
	if err := lock(ctx, c.conn, 42); err != nil {
		return err
	}
	_, err := c.batchDelete(ctx, "relationships", sq.Or{sq.Lt{"expires_at": time.Now()}, sq.Eq{"owner": owner}}) // want `collector.batchDelete \(DELETE relationships\) \(DB.ExecContext \(DELETE <run-time name>\) at conds.go:30\) writes to SQL database without a fencing token`
	return err
}

// A PostgreSQL snapshot, as a revision keeps it.
type pgSnapshot struct{ xmin, xmax uint64 }

type revision struct{ snapshot pgSnapshot }

type xid8 struct{ Uint uint64 }

func newXid8(u uint64) xid8 { return xid8{Uint: u} }

// deleteBeforeTx deletes what died before the oldest transaction still
// running (SpiceDB's DeleteBeforeTx): that watermark never goes backwards,
// so a paused holder's older one deletes a subset of the next holder's.
// The snapshot's xmax (the next transaction to start) is no such bound.
func (c *collector) deleteBeforeTx(ctx context.Context, rev revision) error {
	if err := lock(ctx, c.conn, 42); err != nil {
		return err
	}
	minTxAlive := newXid8(rev.snapshot.xmin)
	if _, err := c.batchDelete(ctx, "relationships", sq.Lt{"deleted_xid": minTxAlive}); err != nil {
		return err
	}
	if _, err := c.deleteWhere(ctx, "transactions", sq.Lt{"xid": rev.snapshot.xmin}); err != nil {
		return err
	}
	_, err := c.batchDelete(ctx, "namespaces", sq.Lt{"deleted_xid": newXid8(rev.snapshot.xmax)}) // want `collector.batchDelete \(DELETE namespaces\) \(DB.ExecContext \(DELETE <run-time name>\) at conds.go:30\) writes to SQL database without a fencing token`
	return err
}
