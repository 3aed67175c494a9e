// Package mongostore keeps a ledger's documents in MongoDB (mongo-driver
// v1) under an etcd mutex, whose acquiring revision is the fencing token,
// and a monthly reset and a job queue under a Consul lock (v2).
package mongostore

import (
	"context"
	"errors"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

var errStale = errors.New("stale fence: a newer holder has written")

// Ledger writes account documents under a per-account etcd mutex.
type Ledger struct {
	cli      *clientv3.Client
	accounts *mongo.Collection
	audit    *mongo.Collection
}

func NewLedger(ctx context.Context, cli *clientv3.Client, uri string) (*Ledger, error) {
	client, err := mongo.Connect(ctx, options.Client().ApplyURI(uri))
	if err != nil {
		return nil, err
	}
	db := client.Database("ledger")
	return &Ledger{cli: cli, accounts: db.Collection("accounts"), audit: db.Collection("audit")}, nil
}

// lock takes the account's mutex and returns its fencing token.
func (l *Ledger) lock(ctx context.Context, s *concurrency.Session, account string) (*concurrency.Mutex, int64, error) {
	m := concurrency.NewMutex(s, "/locks/accounts/"+account)
	if err := m.Lock(ctx); err != nil {
		return nil, 0, err
	}
	return m, m.Header().Revision, nil
}

// SetBalance overwrites the balance by _id alone.
func (l *Ledger) SetBalance(ctx context.Context, s *concurrency.Session, account string, balance int64) error {
	m, _, err := l.lock(ctx, s, account)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = l.accounts.UpdateOne(ctx, bson.M{"_id": account}, bson.M{"$set": bson.M{"balance": balance}}) // want unfencedwrite:"without a fencing token"
	return err
}

// SetBalanceFenced only matches while the stored fence is older than the
// token, and aborts when nothing matched.
func (l *Ledger) SetBalanceFenced(ctx context.Context, s *concurrency.Session, account string, balance int64) error {
	m, tok, err := l.lock(ctx, s, account)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	res, err := l.accounts.UpdateOne(ctx,
		bson.D{{Key: "_id", Value: account}, {Key: "fence", Value: bson.D{{Key: "$lt", Value: tok}}}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "balance", Value: balance}, {Key: "fence", Value: tok}}}})
	if err != nil {
		return err
	}
	if res.MatchedCount == 0 {
		return errStale
	}
	return nil
}

// SetBalanceUnchecked has the fence and drops the result.
func (l *Ledger) SetBalanceUnchecked(ctx context.Context, s *concurrency.Session, account string, balance int64) error {
	m, tok, err := l.lock(ctx, s, account)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = l.accounts.UpdateOne(ctx, bson.M{"_id": account, "fence": bson.M{"$lt": tok}}, bson.M{"$set": bson.M{"balance": balance, "fence": tok}}) // want unfencedwrite:"MatchedCount is never read"
	return err
}

// Close marks the account closed with FindOneAndUpdate, fenced, and learns
// from ErrNoDocuments that it lost.
func (l *Ledger) Close(ctx context.Context, s *concurrency.Session, account string) error {
	m, tok, err := l.lock(ctx, s, account)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	var before bson.M
	err = l.accounts.FindOneAndUpdate(ctx,
		bson.M{"_id": account, "fence": bson.M{"$lt": tok}},
		bson.M{"$set": bson.M{"closed": true, "fence": tok}}).Decode(&before)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return errStale
	}
	return err
}

// Open creates the account if it is absent: an upsert with only
// $setOnInsert never changes an account that is there.
func (l *Ledger) Open(ctx context.Context, s *concurrency.Session, account string) error {
	m, _, err := l.lock(ctx, s, account)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = l.accounts.UpdateOne(ctx, bson.M{"_id": account},
		bson.M{"$setOnInsert": bson.M{"balance": 0, "fence": 0}},
		options.Update().SetUpsert(true))
	return err
}

// Audit appends an entry: a deposed holder appends entries too.
func (l *Ledger) Audit(ctx context.Context, s *concurrency.Session, account, what string) error {
	m, _, err := l.lock(ctx, s, account)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = l.audit.InsertOne(ctx, bson.M{"account": account, "what": what}) // want unfencedwrite:"without a fencing token"
	return err
}

// Drop deletes the account by _id alone.
func (l *Ledger) Drop(ctx context.Context, s *concurrency.Session, account string) error {
	m, _, err := l.lock(ctx, s, account)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = l.accounts.DeleteOne(ctx, bson.M{"_id": account}) // want unfencedwrite:"without a fencing token"
	return err
}

// Balance only reads.
func (l *Ledger) Balance(ctx context.Context, s *concurrency.Session, account string) (int64, error) {
	m, _, err := l.lock(ctx, s, account)
	if err != nil {
		return 0, err
	}
	defer m.Unlock(ctx)
	var doc struct {
		Balance int64 `bson:"balance"`
	}
	err = l.accounts.FindOne(ctx, bson.M{"_id": account}).Decode(&doc)
	return doc.Balance, err
}
