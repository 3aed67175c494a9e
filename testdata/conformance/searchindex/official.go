package searchindex

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/esapi"
	"github.com/elastic/go-elasticsearch/v8/esutil"
)

// Catalog mirrors products into Elasticsearch with the official client
// (go-elasticsearch), under the same etcd mutex as Indexer.
type Catalog struct {
	x    *Indexer
	es   *elasticsearch.Client
	bulk esutil.BulkIndexer
}

// Product is the document indexed per product.
type Product struct {
	SKU   string `json:"sku"`
	Price int64  `json:"price"`
}

func body(v any) *bytes.Reader {
	b, _ := json.Marshal(v)
	return bytes.NewReader(b)
}

// Put indexes the product over whatever is there, through the API function.
func (c *Catalog) Put(ctx context.Context, p Product) error {
	return c.x.locked(ctx, func(ctx context.Context, _ int64) error {
		res, err := c.es.Index("products", body(p), c.es.Index.WithDocumentID(p.SKU), c.es.Index.WithContext(ctx)) // want unfencedwrite:"without a fencing token"
		if err != nil {
			return err
		}
		return res.Body.Close()
	})
}

// PutFenced indexes with the lease's token as an external version.
func (c *Catalog) PutFenced(ctx context.Context, p Product) error {
	return c.x.locked(ctx, func(ctx context.Context, token int64) error {
		res, err := c.es.Index("products", body(p),
			c.es.Index.WithDocumentID(p.SKU),
			c.es.Index.WithVersion(int(token)),
			c.es.Index.WithVersionType("external"),
			c.es.Index.WithContext(ctx))
		if err != nil {
			return err
		}
		return res.Body.Close()
	})
}

// Reprice sends a request struct with no condition.
func (c *Catalog) Reprice(ctx context.Context, sku string, price int64) error {
	return c.x.locked(ctx, func(ctx context.Context, _ int64) error {
		req := esapi.UpdateRequest{Index: "products", DocumentID: sku, Body: strings.NewReader(`{"doc":{"price":` + strconv.FormatInt(price, 10) + `}}`)}
		res, err := req.Do(ctx, c.es) // want unfencedwrite:"without a fencing token"
		if err != nil {
			return err
		}
		return res.Body.Close()
	})
}

// RepriceAsRead updates only the document as read (its sequence number).
func (c *Catalog) RepriceAsRead(ctx context.Context, sku string, price int64, seqNo, term int) error {
	return c.x.locked(ctx, func(ctx context.Context, _ int64) error {
		req := esapi.UpdateRequest{Index: "products", DocumentID: sku, IfSeqNo: &seqNo, IfPrimaryTerm: &term,
			Body: strings.NewReader(`{"doc":{"price":` + strconv.FormatInt(price, 10) + `}}`)}
		res, err := req.Do(ctx, c.es)
		if err != nil {
			return err
		}
		return res.Body.Close()
	})
}

// Drop deletes the product: a stale holder deletes what the next one put.
func (c *Catalog) Drop(ctx context.Context, sku string) error {
	return c.x.locked(ctx, func(ctx context.Context, _ int64) error {
		res, err := c.es.Delete("products", sku, c.es.Delete.WithContext(ctx)) // want unfencedwrite:"without a fencing token"
		if err != nil {
			return err
		}
		return res.Body.Close()
	})
}

// Log appends a price-change event under an ID Elasticsearch makes up, and
// creates the day's summary only if absent: neither overwrites anything.
func (c *Catalog) Log(ctx context.Context, day string, p Product) error {
	return c.x.locked(ctx, func(ctx context.Context, _ int64) error {
		res, err := esapi.IndexRequest{Index: "price-log", Body: body(p)}.Do(ctx, c.es)
		if err != nil {
			return err
		}
		res.Body.Close()
		res, err = c.es.Create("price-summaries", day, body(map[string]string{"day": day}))
		if err != nil {
			return err
		}
		return res.Body.Close()
	})
}

// Load queues the products on the bulk indexer: plain index actions, and
// creates of the SKUs' first-seen records.
func (c *Catalog) Load(ctx context.Context, ps []Product) error {
	return c.x.locked(ctx, func(ctx context.Context, _ int64) error {
		for _, p := range ps {
			if err := c.bulk.Add(ctx, esutil.BulkIndexerItem{Action: "index", Index: "products", DocumentID: p.SKU, Body: body(p)}); err != nil { // want unfencedwrite:"without a fencing token"
				return err
			}
			if err := c.bulk.Add(ctx, esutil.BulkIndexerItem{Action: "create", Index: "first-seen", DocumentID: p.SKU, Body: body(p)}); err != nil {
				return err
			}
		}
		return nil
	})
}
