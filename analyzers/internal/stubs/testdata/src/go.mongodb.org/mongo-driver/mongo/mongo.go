// Package mongo is a stub of go.mongodb.org/mongo-driver/mongo (v1.12):
// the client, its collections and their reads and writes.
package mongo

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/mongo/options"
)

var ErrNoDocuments = errors.New("mongo: no documents in result")

type Client struct{}

func Connect(ctx context.Context, opts ...*options.ClientOptions) (*Client, error) {
	return &Client{}, nil
}

func (c *Client) Disconnect(ctx context.Context) error { return nil }

func (c *Client) Database(name string, opts ...*options.DatabaseOptions) *Database {
	return &Database{}
}

type Database struct{}

func (db *Database) Collection(name string, opts ...*options.CollectionOptions) *Collection {
	return &Collection{}
}

type Collection struct{}

type WriteModel interface {
	writeModel()
}

type InsertOneResult struct {
	InsertedID interface{}
}

type InsertManyResult struct {
	InsertedIDs []interface{}
}

type DeleteResult struct {
	DeletedCount int64 `bson:"n"`
}

type UpdateResult struct {
	MatchedCount  int64
	ModifiedCount int64
	UpsertedCount int64
	UpsertedID    interface{}
}

type BulkWriteResult struct {
	InsertedCount int64
	MatchedCount  int64
	ModifiedCount int64
	DeletedCount  int64
	UpsertedCount int64
	UpsertedIDs   map[int64]interface{}
}

type SingleResult struct{}

func (sr *SingleResult) Decode(v interface{}) error { return nil }

func (sr *SingleResult) Err() error { return nil }

type Cursor struct{}

func (c *Cursor) Next(ctx context.Context) bool { return false }

func (c *Cursor) Decode(val interface{}) error { return nil }

func (c *Cursor) Close(ctx context.Context) error { return nil }

func (coll *Collection) BulkWrite(ctx context.Context, models []WriteModel,
	opts ...*options.BulkWriteOptions) (*BulkWriteResult, error) {
	return &BulkWriteResult{}, nil
}

func (coll *Collection) InsertOne(ctx context.Context, document interface{},
	opts ...*options.InsertOneOptions) (*InsertOneResult, error) {
	return &InsertOneResult{}, nil
}

func (coll *Collection) InsertMany(ctx context.Context, documents []interface{},
	opts ...*options.InsertManyOptions) (*InsertManyResult, error) {
	return &InsertManyResult{}, nil
}

func (coll *Collection) DeleteOne(ctx context.Context, filter interface{},
	opts ...*options.DeleteOptions) (*DeleteResult, error) {
	return &DeleteResult{}, nil
}

func (coll *Collection) DeleteMany(ctx context.Context, filter interface{},
	opts ...*options.DeleteOptions) (*DeleteResult, error) {
	return &DeleteResult{}, nil
}

func (coll *Collection) UpdateByID(ctx context.Context, id interface{}, update interface{},
	opts ...*options.UpdateOptions) (*UpdateResult, error) {
	return &UpdateResult{}, nil
}

func (coll *Collection) UpdateOne(ctx context.Context, filter interface{}, update interface{},
	opts ...*options.UpdateOptions) (*UpdateResult, error) {
	return &UpdateResult{}, nil
}

func (coll *Collection) UpdateMany(ctx context.Context, filter interface{}, update interface{},
	opts ...*options.UpdateOptions) (*UpdateResult, error) {
	return &UpdateResult{}, nil
}

func (coll *Collection) ReplaceOne(ctx context.Context, filter interface{},
	replacement interface{}, opts ...*options.ReplaceOptions) (*UpdateResult, error) {
	return &UpdateResult{}, nil
}

func (coll *Collection) Find(ctx context.Context, filter interface{},
	opts ...*options.FindOptions) (cur *Cursor, err error) {
	return &Cursor{}, nil
}

func (coll *Collection) FindOne(ctx context.Context, filter interface{},
	opts ...*options.FindOneOptions) *SingleResult {
	return &SingleResult{}
}

func (coll *Collection) CountDocuments(ctx context.Context, filter interface{},
	opts ...*options.CountOptions) (int64, error) {
	return 0, nil
}

func (coll *Collection) FindOneAndDelete(ctx context.Context, filter interface{},
	opts ...*options.FindOneAndDeleteOptions) *SingleResult {
	return &SingleResult{}
}

func (coll *Collection) FindOneAndReplace(ctx context.Context, filter interface{},
	replacement interface{}, opts ...*options.FindOneAndReplaceOptions) *SingleResult {
	return &SingleResult{}
}

func (coll *Collection) FindOneAndUpdate(ctx context.Context, filter interface{},
	update interface{}, opts ...*options.FindOneAndUpdateOptions) *SingleResult {
	return &SingleResult{}
}

type IndexModel struct {
	Keys    interface{}
	Options *options.IndexOptions
}

type IndexView struct{}

func (coll *Collection) Indexes() IndexView { return IndexView{} }

func (iv IndexView) CreateOne(ctx context.Context, model IndexModel, opts ...*options.CreateIndexesOptions) (string, error) {
	return "", nil
}

func (iv IndexView) CreateMany(ctx context.Context, models []IndexModel, opts ...*options.CreateIndexesOptions) ([]string, error) {
	return nil, nil
}
