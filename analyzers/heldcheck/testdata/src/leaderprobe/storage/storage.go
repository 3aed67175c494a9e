// Package storage wraps the persistence with the cluster's own records.
package storage

import (
	"context"
	"encoding/json"

	"leaderprobe/persist"
)

type Storage struct{ persist persist.Persistence }

func (s *Storage) IsLeader() bool { return s.persist.Leader() == s.persist.ID() }

func (s *Storage) UpdateCluster(ctx context.Context, name string, topology map[string]string) error {
	value, err := json.Marshal(topology)
	if err != nil {
		return err
	}
	return s.persist.Set(ctx, "/clusters/"+name, value)
}
