package redisnx

import (
	"context"
	"database/sql"
	_ "embed"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// claimOrderScript claims an order's lock with SET NX PX inside Lua.
//
//go:embed claim_order.lua
var claimOrderScript string

// ShipOrder claims the order's lock in a Lua script (its result checked
// against 1), writes the shipment unfenced, and releases the lock with the
// compare-and-delete script: the write after the release holds no lock.
func ShipOrder(ctx context.Context, rdb *redis.Client, db *sql.DB, order string) error {
	owner := uuid.NewString()
	n, err := rdb.Eval(ctx, claimOrderScript, []string{"lock:order:" + order}, owner, (30 * time.Second).Milliseconds()).Int64()
	if err != nil {
		return err
	}
	if n != 1 {
		return errBusy
	}
	if _, err := db.ExecContext(ctx, `UPDATE orders SET state = 'shipped' WHERE id = $1`, order); err != nil { // want unfencedwrite:"lock taken by Eval \\(SET NX in its Lua script\\)"
		return err
	}
	if err := releaseScript.Run(ctx, rdb, []string{"lock:order:" + order}, owner).Err(); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE orders SET notified = true WHERE id = $1`, order)
	return err
}

// ReserveSeat runs an atomic check-and-claim script that writes no lock
// (no NX): the write after it holds none.
func ReserveSeat(ctx context.Context, rdb *redis.Client, db *sql.DB, show, seat string) error {
	ok, err := rdb.Eval(ctx, `if redis.call("HEXISTS", KEYS[1], ARGV[1]) == 1 then return 0 end
redis.call("HSET", KEYS[1], ARGV[1], ARGV[2])
return 1`, []string{"seats:" + show}, seat, "held").Bool()
	if err != nil || !ok {
		return errBusy
	}
	_, err = db.ExecContext(ctx, `INSERT INTO reservations (show_id, seat) VALUES ($1, $2)`, show, seat)
	return err
}
