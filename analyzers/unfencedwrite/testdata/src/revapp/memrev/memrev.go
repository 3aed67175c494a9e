// Package memrev keeps revisions in memory (a dry run): it writes nothing
// shared.
package memrev

import (
	"context"
	"sync"

	"revapp/migrate"
)

type Revisions struct {
	mu   sync.Mutex
	revs map[string]*migrate.Revision
}

func (s *Revisions) ReadRevision(ctx context.Context, version string) (*migrate.Revision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.revs[version]; ok {
		return r, nil
	}
	return &migrate.Revision{Version: version}, nil
}

func (s *Revisions) WriteRevision(ctx context.Context, r *migrate.Revision) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.revs[r.Version] = r
	return nil
}
