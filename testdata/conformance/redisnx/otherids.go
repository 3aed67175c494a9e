package redisnx

import (
	"context"
	"crypto/rand"
	"errors"
	"time"

	gofrsuuid "github.com/gofrs/uuid/v5"
	"github.com/oklog/ulid/v2"
	"github.com/redis/go-redis/v9"
	"github.com/rs/xid"
	"github.com/segmentio/ksuid"
)

// Receipt writes under keys named by an xid, a KSUID, ULIDs and a gofrs
// UUID drawn here, and then links one: only the link is reported. The key
// from an xid read back from the store is reported too.
func (c *Checkout) Receipt(ctx context.Context, seat string, body []byte) error {
	owner := xid.New().String()
	err := c.rdb.SetArgs(ctx, "lock:seat:"+seat, owner, redis.SetArgs{Mode: "NX", TTL: 10 * time.Second}).Err()
	if errors.Is(err, redis.Nil) {
		return errBusy
	} else if err != nil {
		return err
	}
	defer releaseScript.Run(context.Background(), c.rdb, []string{"lock:seat:" + seat}, owner)
	c.rdb.Set(ctx, "receipt:"+ksuid.New().String(), body, time.Hour)
	c.rdb.Set(ctx, "receipt:"+ulid.Make().String(), body, time.Hour)
	c.rdb.Set(ctx, "receipt:"+gofrsuuid.Must(gofrsuuid.NewV4()).String(), body, time.Hour)
	id := ulid.MustNew(ulid.Now(), ulid.Monotonic(rand.Reader, 0))
	if err := c.rdb.HSet(ctx, "receipt:"+id.String(), "body", body).Err(); err != nil {
		return err
	}
	if err := c.rdb.Set(ctx, "seat:"+seat+":receipt", id.String(), time.Hour).Err(); err != nil { // want unfencedwrite:"without a fencing token"
		return err
	}
	last, err := xid.FromString(c.rdb.Get(ctx, "seat:"+seat+":last").Val())
	if err != nil {
		return err
	}
	return c.rdb.Set(ctx, "receipt:"+last.String(), body, time.Hour).Err() // want unfencedwrite:"without a fencing token"
}
