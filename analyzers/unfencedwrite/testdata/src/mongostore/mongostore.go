// Package mongostore keeps documents in MongoDB under an etcd mutex, whose
// acquiring revision is the fencing token. Each collection write is read
// as the SQL statement it amounts to: fenced when its filter compares a
// fence field with the token (or holds a version the update bumps) and the
// match count is read.
package mongostore

import (
	"context"
	"errors"

	"go.etcd.io/etcd/client/v3/concurrency"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

var errStale = errors.New("stale fence: a newer holder has written")

type Store struct {
	session *concurrency.Session
	docs    *mongo.Collection
	events  *mongo.Collection
}

func New(s *concurrency.Session, client *mongo.Client) *Store {
	db := client.Database("app")
	return &Store{session: s, docs: db.Collection("docs"), events: db.Collection("events")}
}

// lock takes the document's mutex and returns its fencing token.
func (s *Store) lock(ctx context.Context, id string) (*concurrency.Mutex, int64, error) {
	m := concurrency.NewMutex(s.session, "/locks/docs/"+id)
	if err := m.Lock(ctx); err != nil {
		return nil, 0, err
	}
	return m, m.Header().Revision, nil
}

// Save overwrites the body by _id alone: a holder paused past its lease
// writes its stale body over the next holder's.
func (s *Store) Save(ctx context.Context, id, body string) error {
	m, _, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = s.docs.UpdateOne(ctx, bson.M{"_id": id}, bson.M{"$set": bson.M{"body": body}}) // want `Collection.UpdateOne \(UPDATE docs\) writes to MongoDB without a fencing token while the etcd lock taken by Store.lock \(line \d+\) is held: .*"\$lt": token`
	return err
}

// SaveFenced is fenced: the filter only matches while the stored fence is
// older than the token, and a 0 match count aborts.
func (s *Store) SaveFenced(ctx context.Context, id, body string) error {
	m, tok, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	res, err := s.docs.UpdateOne(ctx,
		bson.M{"_id": id, "fence": bson.M{"$lt": tok}},
		bson.M{"$set": bson.M{"body": body, "fence": tok}})
	if err != nil {
		return err
	}
	if res.MatchedCount == 0 {
		return errStale
	}
	return nil
}

// SaveFencedD is the same fence written as bson.D.
func (s *Store) SaveFencedD(ctx context.Context, id, body string) error {
	m, tok, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	res, err := s.docs.UpdateOne(ctx,
		bson.D{{Key: "_id", Value: id}, {Key: "fence", Value: bson.D{{Key: "$lte", Value: tok}}}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "body", Value: body}, {Key: "fence", Value: tok}}}})
	if err != nil {
		return err
	}
	if res.ModifiedCount == 0 {
		return errStale
	}
	return nil
}

// SaveUnchecked has the fence but never reads the match count: a stale
// holder is refused silently and carries on as if it had written.
func (s *Store) SaveUnchecked(ctx context.Context, id, body string) error {
	m, tok, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = s.docs.UpdateOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": tok}}, bson.M{"$set": bson.M{"body": body, "fence": tok}}) // want `Collection.UpdateOne \(UPDATE docs\) is fenced but its MatchedCount is never read`
	return err
}

// SaveVersioned is optimistic: the version it read must still be there,
// and the update bumps it.
func (s *Store) SaveVersioned(ctx context.Context, id, body string) error {
	m, _, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	var doc struct {
		Body    string `bson:"body"`
		Version int64  `bson:"version"`
	}
	if err := s.docs.FindOne(ctx, bson.M{"_id": id}).Decode(&doc); err != nil {
		return err
	}
	res, err := s.docs.UpdateOne(ctx,
		bson.M{"_id": id, "version": doc.Version},
		bson.M{"$set": bson.M{"body": body}, "$inc": bson.M{"version": 1}})
	if err != nil {
		return err
	}
	if res.MatchedCount == 0 {
		return errStale
	}
	return nil
}

// Claim takes the next queued job with FindOneAndUpdate, fenced, and
// learns from ErrNoDocuments that it lost.
func (s *Store) Claim(ctx context.Context, id string) error {
	m, tok, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	err = s.docs.FindOneAndUpdate(ctx,
		bson.M{"_id": id, "fence": bson.M{"$lt": tok}},
		bson.M{"$set": bson.M{"owner": "me", "fence": tok}}).Err()
	if errors.Is(err, mongo.ErrNoDocuments) {
		return errStale
	}
	return err
}

// Replace swaps the whole document by _id: unfenced.
func (s *Store) Replace(ctx context.Context, id string, doc any) error {
	m, _, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = s.docs.ReplaceOne(ctx, bson.M{"_id": id}, doc) // want `Collection.ReplaceOne \(UPDATE docs\) writes to MongoDB without a fencing token`
	return err
}

// Record appends an event under the lock: a deposed holder appends events
// the next holder also appends.
func (s *Store) Record(ctx context.Context, id string, event map[string]any) error {
	m, _, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = s.events.InsertOne(ctx, event) // want `Collection.InsertOne \(INSERT events\) writes to MongoDB without a fencing token`
	return err
}

// Remove deletes by _id alone: unfenced.
func (s *Store) Remove(ctx context.Context, id string) error {
	m, _, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = s.docs.DeleteOne(ctx, bson.M{"_id": id}) // want `Collection.DeleteOne \(DELETE docs\) writes to MongoDB without a fencing token`
	return err
}

// Ensure creates the document if it is absent: an upsert whose update only
// has $setOnInsert never changes a document that is there.
func (s *Store) Ensure(ctx context.Context, id string) error {
	m, _, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = s.docs.UpdateOne(ctx, bson.M{"_id": id},
		bson.M{"$setOnInsert": bson.M{"body": "", "fence": 0}},
		options.Update().SetUpsert(true))
	return err
}

// Upsert with $set overwrites a document that is there: unfenced.
func (s *Store) Upsert(ctx context.Context, id, body string) error {
	m, _, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = s.docs.UpdateOne(ctx, bson.M{"_id": id}, // want `Collection.UpdateOne \(UPDATE docs\) writes to MongoDB without a fencing token`
		bson.M{"$set": bson.M{"body": body}, "$setOnInsert": bson.M{"fence": 0}},
		options.Update().SetUpsert(true))
	return err
}

// Filtered takes a filter built by its caller: fencelint cannot see
// whether it compares a fence.
func (s *Store) Filtered(ctx context.Context, id string, filter bson.M) error {
	m, _, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = s.docs.UpdateMany(ctx, filter, bson.M{"$set": bson.M{"seen": true}}) // want `Collection.UpdateMany \(UPDATE docs\) writes to MongoDB while .* fencelint could not see its filter \(built out of sight\)`
	return err
}

// Read only reads under the lock: quiet.
func (s *Store) Read(ctx context.Context, id string) (int64, error) {
	m, _, err := s.lock(ctx, id)
	if err != nil {
		return 0, err
	}
	defer m.Unlock(ctx)
	var doc bson.M
	if err := s.docs.FindOne(ctx, bson.M{"_id": id}).Decode(&doc); err != nil {
		return 0, err
	}
	return s.docs.CountDocuments(ctx, bson.M{"owner": id})
}

// Unlocked writes without any lock: nothing to fence.
func (s *Store) Unlocked(ctx context.Context, id, body string) error {
	_, err := s.docs.UpdateOne(ctx, bson.M{"_id": id}, bson.M{"$set": bson.M{"body": body}})
	return err
}

// ResetUsage is a monthly job's reset of every user's counters to 0: no
// filter, constant values. A stale holder's copy is the same reset made
// late, and every holder writes the same: quiet.
func (s *Store) ResetUsage(ctx context.Context, users *mongo.Collection) error {
	m, _, err := s.lock(ctx, "usage-reset")
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = users.UpdateMany(ctx, bson.M{}, bson.M{"$set": bson.M{"usage.sms": 0, "usage.calls": 0}})
	return err
}

// ResetPlan picks the users by the plan the holder was handed: the rows
// come from its memory, so a stale holder resets users the next holder
// moved to another plan.
func (s *Store) ResetPlan(ctx context.Context, users *mongo.Collection, plan string) error {
	m, _, err := s.lock(ctx, "usage-reset")
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = users.UpdateMany(ctx, bson.M{"plan": plan}, bson.M{"$set": bson.M{"usage.sms": 0}}) // want `Collection.UpdateMany \(UPDATE collection\) writes to MongoDB without a fencing token`
	return err
}

// Bump adds to every user's counter: not a reset (it builds on the value
// there).
func (s *Store) Bump(ctx context.Context, users *mongo.Collection) error {
	m, _, err := s.lock(ctx, "usage-bump")
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = users.UpdateMany(ctx, bson.D{}, bson.M{"$inc": bson.M{"usage.sms": 1}}) // want `Collection.UpdateMany \(UPDATE collection\) writes to MongoDB without a fencing token`
	return err
}

// Recount repairs each user's cached count of documents from the documents
// themselves: what it writes is recomputed from what it counts, and the
// next run counts again: quiet. Its twin writes a total it carries from
// the user's own document (read, then added to): a stale holder's total
// overwrites the next holder's.
func (s *Store) Recount(ctx context.Context, users *mongo.Collection, id string) error {
	m, _, err := s.lock(ctx, "recount")
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	n, err := s.docs.CountDocuments(ctx, bson.M{"owner": id})
	if err != nil {
		return err
	}
	if _, err := users.UpdateByID(ctx, id, bson.M{"$set": bson.M{"docs": int32(n)}}); err != nil {
		return err
	}
	var u struct {
		Total int64 `bson:"total"`
	}
	if err := users.FindOne(ctx, bson.M{"_id": id}).Decode(&u); err != nil {
		return err
	}
	_, err = users.UpdateByID(ctx, id, bson.M{"$set": bson.M{"total": u.Total + n}}) // want `Collection.UpdateByID \(UPDATE collection\) writes to MongoDB without a fencing token`
	return err
}

// Batch writes models built elsewhere: fencelint does not read them.
func (s *Store) Batch(ctx context.Context, id string, models []mongo.WriteModel) error {
	m, _, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = s.docs.BulkWrite(ctx, models) // want `Collection.BulkWrite \(UPDATE docs\) writes to MongoDB while .* could not see its write models`
	return err
}
