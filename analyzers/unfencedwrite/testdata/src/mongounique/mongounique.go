// Package mongounique stores module versions in MongoDB under a Redis
// lock. The modules collection has a unique index on (module, version):
// a stale holder's second insert fails with a duplicate-key error and
// overwrites nothing. The downloads collection has an index that is not
// unique, so an insert there adds a second document.
package mongounique

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

type module struct {
	Module  string `bson:"module"`
	Version string `bson:"version"`
	Zip     []byte `bson:"zip"`
}

type Store struct {
	client *mongo.Client
	db     string
	coll   string
	locks  *redislock.Client
}

// init gives the modules collection its unique index.
func (s *Store) init(ctx context.Context) error {
	c := s.client.Database(s.db).Collection(s.coll)
	keys := bson.D{{Key: "module", Value: 1}, {Key: "version", Value: 1}}
	_, err := c.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: keys, Options: options.Index().SetSparse(true).SetUnique(true)})
	if err != nil {
		return err
	}
	d := s.client.Database(s.db).Collection("downloads")
	_, err = d.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "module", Value: 1}}})
	return err
}

// Save inserts the module version once; the unique index rejects a second
// insert.
func (s *Store) Save(ctx context.Context, m module) error {
	lock, err := s.locks.Obtain(ctx, "stash:"+m.Module+"@"+m.Version, 15*time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	_, err = s.client.Database(s.db).Collection(s.coll).InsertOne(ctx, m)
	return err
}

// Count records a download: the collection's index is not unique.
func (s *Store) Count(ctx context.Context, m module) error {
	lock, err := s.locks.Obtain(ctx, "count:"+m.Module, time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	_, err = s.client.Database(s.db).Collection("downloads").InsertOne(ctx, bson.M{"module": m.Module, "at": time.Now()}) // want `Collection.InsertOne \(INSERT downloads\) writes to MongoDB without a fencing token`
	return err
}
