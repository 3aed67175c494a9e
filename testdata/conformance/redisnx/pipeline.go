package redisnx

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var errSkip = errors.New("another worker ships this order")

// shipment is the state the shipping steps pass along.
type shipment struct {
	ctx   context.Context
	rdb   *redis.Client
	order string
	state string
}

// onlyExpress runs its steps for express orders only.
func onlyExpress(steps ...func(*shipment) error) func(*shipment) error {
	return func(s *shipment) error {
		if s.state != "express" {
			return nil
		}
		for _, step := range steps {
			if err := step(s); err != nil {
				return err
			}
		}
		return nil
	}
}

// shipSteps run in order; claimOrder takes a SET NX lock that expires and
// keeps it, so the steps after it run under it.
var shipSteps = []func(*shipment) error{
	readOrder,
	onlyExpress(claimOrder),
	markShipped,
}

// Ship runs the steps, stopping at the first error.
func Ship(ctx context.Context, rdb *redis.Client, order string) error {
	s := &shipment{ctx: ctx, rdb: rdb, order: order}
	for _, step := range shipSteps {
		if err := step(s); err != nil {
			if errors.Is(err, errSkip) {
				return nil
			}
			return err
		}
	}
	return nil
}

func readOrder(s *shipment) error {
	state, err := s.rdb.HGet(s.ctx, "order:"+s.order, "state").Result()
	s.state = state
	return err
}

func claimOrder(s *shipment) error {
	ok, err := s.rdb.SetNX(s.ctx, "lock:ship:"+s.order, "1", 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errSkip
	}
	return nil
}

// markShipped writes under claimOrder's lock: a worker paused past 30 s
// marks an order another worker has shipped and changed since.
func markShipped(s *shipment) error {
	return s.rdb.HSet(s.ctx, "order:"+s.order, "state", "shipped").Err() // want unfencedwrite:"while the Redis lock that claimOrder takes, an earlier step of shipSteps"
}

// refundSteps take and give up their lock within one step: the later
// steps run under no lock.
var refundSteps = []func(*shipment) error{
	checkRefundable,
	markRefunded,
}

// Refund runs the refund steps.
func Refund(ctx context.Context, rdb *redis.Client, order string) error {
	s := &shipment{ctx: ctx, rdb: rdb, order: order}
	for _, step := range refundSteps {
		if err := step(s); err != nil {
			return err
		}
	}
	return nil
}

func checkRefundable(s *shipment) error {
	ok, err := s.rdb.SetNX(s.ctx, "lock:refund:"+s.order, "1", 30*time.Second).Result()
	if err != nil || !ok {
		return errSkip
	}
	defer s.rdb.Del(s.ctx, "lock:refund:"+s.order)
	state, err := s.rdb.HGet(s.ctx, "order:"+s.order, "state").Result()
	s.state = state
	return err
}

func markRefunded(s *shipment) error {
	return s.rdb.HSet(s.ctx, "order:"+s.order, "refunded", "1").Err()
}
