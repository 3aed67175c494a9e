// Package searchindex holds indexers that mirror orders and products into
// Elasticsearch, through olivere/elastic and the official go-elasticsearch,
// while they hold an etcd mutex.
package searchindex

import (
	"context"
	"encoding/json"
	"time"

	"github.com/olivere/elastic/v7"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Order is the document indexed per order.
type Order struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Total  int64  `json:"total"`
}

// Change is one row change read from the orders table's change feed.
type Change struct {
	Op    string // "upsert" or "delete"
	Order Order
}

// Indexer applies the change feed to the orders index; one replica at a
// time holds the mutex.
type Indexer struct {
	etcd *clientv3.Client
	es   *elastic.Client
	proc *elastic.BulkProcessor
}

// locked runs f under the indexer's mutex, with the revision that granted
// it: a fencing token, higher for each new holder.
func (x *Indexer) locked(ctx context.Context, f func(ctx context.Context, token int64) error) error {
	s, err := concurrency.NewSession(x.etcd, concurrency.WithTTL(10))
	if err != nil {
		return err
	}
	defer s.Close()
	m := concurrency.NewMutex(s, "/locks/order-index")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(context.Background())
	return f(s.Ctx(), m.Header().Revision)
}

// Apply sends the batch as one bulk request of plain index and delete
// actions: a stale holder's bulk puts back what the next holder changed.
func (x *Indexer) Apply(ctx context.Context, batch []Change) error {
	return x.locked(ctx, func(ctx context.Context, _ int64) error {
		bulk := x.es.Bulk()
		for _, c := range batch {
			prepare(bulk, c)
		}
		if bulk.NumberOfActions() == 0 {
			return nil
		}
		_, err := bulk.Do(ctx) // want unfencedwrite:"without a fencing token"
		return err
	})
}

// prepare adds the action for one change.
func prepare(bulk *elastic.BulkService, c Change) {
	switch c.Op {
	case "delete":
		bulk.Add(elastic.NewBulkDeleteRequest().Index("orders").Id(c.Order.ID))
	default:
		bulk.Add(elastic.NewBulkIndexRequest().Index("orders").Id(c.Order.ID).Doc(c.Order))
	}
}

// ApplyFenced sends every action with the lease's token as its external
// version: Elasticsearch keeps the highest version written and refuses a
// stale holder's actions with a version conflict.
func (x *Indexer) ApplyFenced(ctx context.Context, batch []Change) error {
	return x.locked(ctx, func(ctx context.Context, token int64) error {
		bulk := x.es.Bulk()
		for _, c := range batch {
			if c.Op == "delete" {
				bulk.Add(elastic.NewBulkDeleteRequest().Index("orders").Id(c.Order.ID).Version(token).VersionType("external_gte"))
				continue
			}
			bulk.Add(elastic.NewBulkIndexRequest().Index("orders").Id(c.Order.ID).Version(token).VersionType("external").Doc(c.Order))
		}
		_, err := bulk.Do(ctx)
		return err
	})
}

// Put indexes one order over whatever is there.
func (x *Indexer) Put(ctx context.Context, o Order) error {
	return x.locked(ctx, func(ctx context.Context, _ int64) error {
		_, err := x.es.Index().Index("orders").Id(o.ID).BodyJson(o).Do(ctx) // want unfencedwrite:"without a fencing token"
		return err
	})
}

// PutForced passes the token as a version but with version_type force,
// which writes whatever version it is given.
func (x *Indexer) PutForced(ctx context.Context, o Order) error {
	return x.locked(ctx, func(ctx context.Context, token int64) error {
		_, err := x.es.Index().Index("orders").Id(o.ID).Version(token).VersionType("force").BodyJson(o).Do(ctx) // want unfencedwrite:"without a fencing token"
		return err
	})
}

// PutFenced indexes one order with the token as its external version.
func (x *Indexer) PutFenced(ctx context.Context, o Order) error {
	return x.locked(ctx, func(ctx context.Context, token int64) error {
		idx := x.es.Index().Index("orders").Id(o.ID)
		idx.Version(token).VersionType("external")
		_, err := idx.BodyJson(o).Do(ctx)
		return err
	})
}

// PutStamped uses the wall clock as the external version: Elasticsearch
// compares it, but clocks differ and jump, so a stale holder's later stamp
// wins over the next holder's write.
func (x *Indexer) PutStamped(ctx context.Context, o Order) error {
	return x.locked(ctx, func(ctx context.Context, _ int64) error {
		_, err := x.es.Index().Index("orders").Id(o.ID).Version(time.Now().UnixNano()).VersionType("external").BodyJson(o).Do(ctx) // want weaktoken:"is not a fencing token"
		return err
	})
}

// MarkShipped reads the order and updates it only as read (its sequence
// number and primary term): a compare-and-set a stale holder fails.
func (x *Indexer) MarkShipped(ctx context.Context, id string) error {
	return x.locked(ctx, func(ctx context.Context, _ int64) error {
		got, err := x.es.Get().Index("orders").Id(id).Do(ctx)
		if err != nil {
			return err
		}
		var o Order
		if err := json.Unmarshal(got.Source, &o); err != nil {
			return err
		}
		o.Status = "shipped"
		_, err = x.es.Index().Index("orders").Id(id).IfSeqNo(*got.SeqNo).IfPrimaryTerm(*got.PrimaryTerm).BodyJson(o).Do(ctx)
		return err
	})
}

// Cancel sets the status with a partial update: last writer wins.
func (x *Indexer) Cancel(ctx context.Context, id string) error {
	return x.locked(ctx, func(ctx context.Context, _ int64) error {
		_, err := x.es.Update().Index("orders").Id(id).Doc(map[string]any{"status": "cancelled"}).Do(ctx) // want unfencedwrite:"without a fencing token"
		return err
	})
}

// Archive creates the order's archive copy only if absent, then removes
// the live document: the create fails for a stale holder, the delete does
// not.
func (x *Indexer) Archive(ctx context.Context, o Order) error {
	return x.locked(ctx, func(ctx context.Context, _ int64) error {
		if _, err := x.es.Index().Index("orders-archive").Id(o.ID).OpType("create").BodyJson(o).Do(ctx); err != nil {
			return err
		}
		_, err := x.es.Delete().Index("orders").Id(o.ID).Do(ctx) // want unfencedwrite:"without a fencing token"
		return err
	})
}

// Audit appends an entry under an ID Elasticsearch makes up: it
// overwrites nothing, and a stale holder's extra entry is a duplicate
// event the audit log's readers take, as for a Redis XADD.
func (x *Indexer) Audit(ctx context.Context, c Change) error {
	return x.locked(ctx, func(ctx context.Context, _ int64) error {
		_, err := x.es.Index().Index("order-audit").BodyJson(c).Do(ctx)
		return err
	})
}

// Queue hands the documents to the bulk processor, which sends them in the
// background: plain index requests, written whenever it flushes.
func (x *Indexer) Queue(ctx context.Context, orders []Order) error {
	return x.locked(ctx, func(ctx context.Context, _ int64) error {
		for _, o := range orders {
			x.proc.Add(elastic.NewBulkIndexRequest().Index("orders").Id(o.ID).Doc(o)) // want unfencedwrite:"without a fencing token"
		}
		return nil
	})
}

// Recount runs a stored script that increments the counter only for a
// token above the one the document keeps (Painless, which fencelint does
// not read): it stays quiet.
func (x *Indexer) Recount(ctx context.Context, id string, n int64) error {
	return x.locked(ctx, func(ctx context.Context, token int64) error {
		script := elastic.NewScriptStored("bump-if-newer").Params(map[string]any{"n": n, "token": token})
		_, err := x.es.Update().Index("order-stats").Id(id).Script(script).Do(ctx)
		return err
	})
}
