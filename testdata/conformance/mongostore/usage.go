package mongostore

import (
	"context"
	"time"

	"github.com/hashicorp/consul/api"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Usage resets and bills usage under a Consul lock, with mongo-driver v2.
type Usage struct {
	consul *api.Client
	users  *mongo.Collection
	jobs   *mongo.Collection
}

func NewUsage(consul *api.Client, uri string) (*Usage, error) {
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		return nil, err
	}
	db := client.Database("usage")
	return &Usage{consul: consul, users: db.Collection("users"), jobs: db.Collection("jobs")}, nil
}

// Monthly resets every user's counters to 0 and re-queues the plan's
// jobs under the lock. The reset picks no users and carries no value: a
// stale holder's copy is the same reset made late. The re-queue picks the
// jobs by the plan it was handed and overwrites their state.
func (u *Usage) Monthly(ctx context.Context, plan string) error {
	lock, err := u.consul.LockKey("usage/monthly")
	if err != nil {
		return err
	}
	lost, err := lock.Lock(ctx.Done())
	if err != nil || lost == nil {
		return err
	}
	defer lock.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-lost:
			cancel()
		case <-ctx.Done():
		}
	}()
	if _, err := u.users.UpdateMany(ctx, bson.M{}, bson.M{"$set": bson.M{"usage.sms": 0, "usage.calls": 0}}); err != nil {
		return err
	}
	_, err = u.jobs.UpdateMany(ctx, bson.M{"plan": plan}, bson.M{"$set": bson.M{"state": "queued", "at": time.Now()}}) // want unfencedwrite:"without a fencing token"
	if err != nil {
		return err
	}
	_, err = u.jobs.UpdateOne(ctx, bson.M{"_id": "monthly-" + plan},
		bson.M{"$setOnInsert": bson.M{"plan": plan}},
		options.UpdateOne().SetUpsert(true))
	return err
}
