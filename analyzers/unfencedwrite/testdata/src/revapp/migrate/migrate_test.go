package migrate

import (
	"context"
	"database/sql"
)

// scratchRevisions is a test double writing to a scratch database: a type
// of a _test.go file does not make a call through the interface a write.
type scratchRevisions struct{ db *sql.DB }

func (s *scratchRevisions) ReadRevision(context.Context, string) (*Revision, error) {
	return &Revision{}, nil
}

func (s *scratchRevisions) WriteRevision(ctx context.Context, r *Revision) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO revisions (version, applied) VALUES ($1, $2)`, r.Version, r.Applied)
	return err
}

var _, _ = NewExecutor(&scratchRevisions{})
