// Package olivere6 mirrors rows into Elasticsearch with olivere/elastic v6
// (github.com/olivere/elastic, before its /v7 module) under a redsync
// mutex.
package olivere6

import (
	"context"

	"github.com/go-redsync/redsync/v4"
	"github.com/olivere/elastic"
)

// Row is one row change to mirror.
type Row struct {
	ID     string
	Delete bool
	Doc    map[string]any
}

// Mirror applies row changes to an index; one replica at a time does.
type Mirror struct {
	rs *redsync.Redsync
	es *elastic.Client
}

// Apply sends the rows as one bulk request of unversioned actions.
func (m *Mirror) Apply(ctx context.Context, index string, rows []Row) error {
	mu := m.rs.NewMutex("mirror:" + index)
	if err := mu.LockContext(ctx); err != nil {
		return err
	}
	defer mu.UnlockContext(context.Background())
	bulk := m.es.Bulk()
	for _, r := range rows {
		if r.Delete {
			bulk.Add(elastic.NewBulkDeleteRequest().Index(index).Type("_doc").Id(r.ID))
			continue
		}
		bulk.Add(elastic.NewBulkIndexRequest().Index(index).Type("_doc").Id(r.ID).Doc(r.Doc))
	}
	_, err := bulk.Do(ctx) // want unfencedwrite:"without a fencing token"
	return err
}
