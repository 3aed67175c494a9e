package pgx

import "github.com/jackc/pgx/v5/pgconn"

type batchItemFunc func(br BatchResults) error

type QueuedQuery struct {
	SQL       string
	Arguments []any
	Fn        batchItemFunc
}

type Batch struct {
	QueuedQueries []*QueuedQuery
}

func (b *Batch) Queue(query string, arguments ...any) (_ *QueuedQuery) { return }
func (b *Batch) Len() int                                              { return len(b.QueuedQueries) }

type BatchResults interface {
	Exec() (pgconn.CommandTag, error)
	Query() (Rows, error)
	QueryRow() Row
	Close() error
}
