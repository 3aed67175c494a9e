// Package rafttoken fences external writes with the Raft term and an etcd
// election's revision: both real tokens.
package rafttoken

import (
	"context"
	"database/sql"

	"github.com/hashicorp/raft"
	"go.etcd.io/etcd/client/v3/concurrency"
)

const update = "UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2"

// term fences with the term the node won leadership in.
func term(ctx context.Context, db *sql.DB, r *raft.Raft) error {
	if r.State() != raft.Leader {
		return nil
	}
	res, err := db.ExecContext(ctx, update, "body", r.CurrentTerm(), 1)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// election fences with the leader key's create revision.
func election(ctx context.Context, db *sql.DB, e *concurrency.Election) error {
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	defer e.Resign(ctx)
	res, err := db.ExecContext(ctx, update, "body", e.Rev(), 1)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}
