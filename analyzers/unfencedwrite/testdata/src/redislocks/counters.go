package redislocks

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
)

// nextIDScript draws business IDs: the first one where the key is missing,
// then the stored number plus a step (an e-commerce ID generator).
const nextIDScript = `
local current = redis.call('GET', KEYS[1])
if current == false then
	redis.call('SET', KEYS[1], ARGV[1])
	return tonumber(ARGV[1])
else
	local id = tonumber(current) + tonumber(ARGV[2])
	redis.call('SET', KEYS[1], id)
	return id
end`

// IDs hands out IDs from Redis counters.
type IDs struct{ rdb *redis.Client }

func (g *IDs) next(ctx context.Context, key string, first, step int64) (int64, error) {
	return g.rdb.Eval(ctx, nextIDScript, []string{key}, first, step).Int64()
}

// OrderID draws an order's ID.
func (g *IDs) OrderID(ctx context.Context) (int64, error) {
	return g.next(ctx, "id:order", 1000000, 7)
}

// ShipmentID draws a shipment's number with INCR.
func (g *IDs) ShipmentID(ctx context.Context) (string, error) {
	n, err := g.rdb.Incr(ctx, "seq:shipment").Result()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("S%010d", n), nil
}

// creditScript adds to a balance and replies the new one.
var creditScript = redis.NewScript(`
local bal = tonumber(redis.call('GET', KEYS[1]) or '0') + tonumber(ARGV[1])
redis.call('SET', KEYS[1], bal)
return bal`)

// placeOrder draws the order's IDs under the shop's lock: a late draw takes
// the next numbers, and the order row is what the lock guards.
func placeOrder(ctx context.Context, rs *redsync.Redsync, ids *IDs, db *sql.DB, shop string) error {
	m := rs.NewMutex("shop:" + shop)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	id, err := ids.OrderID(ctx)
	if err != nil {
		return err
	}
	ship, err := ids.ShipmentID(ctx)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE shops SET last_order = $1, last_shipment = $2 WHERE id = $3", id, ship, shop) // want `ExecContext \(UPDATE shops\) writes to SQL database without a fencing token`
	return err
}

// credit adds a refund to the customer's balance under the order's lock. The
// script steps a number too, but nobody reads it: a stale holder's late
// run credits twice.
func credit(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client, order, customer string, cents int64) error {
	m := rs.NewMutex("order:" + order)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return creditScript.Run(ctx, rdb, []string{"balance:" + customer}, cents).Err() // want `Script.Run writes to Redis without a fencing token`
}

// countRetry counts a retry and checks only the error: the count is the
// data, and a stale holder counts one retry twice.
func countRetry(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client, job string) error {
	m := rs.NewMutex("job:" + job)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := rdb.Incr(ctx, "retries:"+job).Result() // want `Incr writes to Redis without a fencing token`
	return err
}

// countScriptRetry steps a counter in a script and reads only the error:
// the count is the data again.
func countScriptRetry(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client, job string) error {
	m := rs.NewMutex("job:" + job)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := rdb.Eval(ctx, nextIDScript, []string{"retries:" + job}, 1, 1).Int64() // want `Eval writes to Redis without a fencing token`
	return err
}
