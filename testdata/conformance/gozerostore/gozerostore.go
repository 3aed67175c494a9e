// Package gozerostore is a go-zero service's rank logic: a model as goctl
// generates it over sqlc.CachedConn, updated under a Consul lock.
package gozerostore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/hashicorp/consul/api"
	"github.com/zeromicro/go-zero/core/stores/cache"
	"github.com/zeromicro/go-zero/core/stores/sqlc"
	"github.com/zeromicro/go-zero/core/stores/sqlx"
)

var errMoved = errors.New("the rank moved meanwhile")

// Rank is a row of the rank table.
type Rank struct {
	ID      int64   `db:"id"`
	UserID  int64   `db:"user_id"`
	Score   float64 `db:"score"`
	Version int64   `db:"version"`
}

// RankModel is the model's interface.
type RankModel interface {
	FindOneByUserID(ctx context.Context, userID int64) (*Rank, error)
	Update(ctx context.Context, data *Rank) error
	UpdateVersioned(ctx context.Context, data *Rank) error
}

type defaultRankModel struct {
	sqlc.CachedConn
	table string
}

// NewRankModel returns the model over conn, cached in Redis.
func NewRankModel(conn sqlx.SqlConn, c cache.CacheConf) RankModel {
	return &defaultRankModel{CachedConn: sqlc.NewConn(conn, c), table: `"rank"`}
}

func (m *defaultRankModel) FindOneByUserID(ctx context.Context, userID int64) (*Rank, error) {
	var resp Rank
	err := m.QueryRowCtx(ctx, &resp, fmt.Sprintf("cache:rank:userId:%d", userID), func(ctx context.Context, conn sqlx.SqlConn, v any) error {
		query := fmt.Sprintf("select id, user_id, score, version from %s where user_id = $1 limit 1", m.table)
		return conn.QueryRowCtx(ctx, v, query, userID)
	})
	return &resp, err
}

// Update overwrites the row by its id, as goctl's Update does.
func (m *defaultRankModel) Update(ctx context.Context, data *Rank) error {
	_, err := m.ExecCtx(ctx, func(ctx context.Context, conn sqlx.SqlConn) (sql.Result, error) {
		query := fmt.Sprintf("update %s set user_id = $2, score = $3 where id = $1", m.table)
		return conn.ExecCtx(ctx, query, data.ID, data.UserID, data.Score)
	}, fmt.Sprintf("cache:rank:id:%d", data.ID))
	return err
}

// UpdateVersioned writes only over the version it read.
func (m *defaultRankModel) UpdateVersioned(ctx context.Context, data *Rank) error {
	query := fmt.Sprintf("update %s set score = $2, version = version + 1 where id = $1 and version = $3", m.table)
	res, err := m.ExecNoCacheCtx(ctx, query, data.ID, data.Score, data.Version)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errMoved
	}
	return nil
}

// Ranker recomputes users' scores.
type Ranker struct {
	Consul *api.Client
	Ranks  RankModel
}

func (r *Ranker) lock(userID int64) (*api.Lock, <-chan struct{}, error) {
	lock, err := r.Consul.LockOpts(&api.LockOptions{Key: fmt.Sprintf("rank/%d", userID), SessionTTL: "10s"})
	if err != nil {
		return nil, nil, err
	}
	lost, err := lock.Lock(nil)
	if err != nil {
		return nil, nil, err
	}
	return lock, lost, nil
}

// Rescore overwrites the score with the generated Update: a ranker paused
// past the session's TTL writes its older score over the next holder's.
func (r *Ranker) Rescore(ctx context.Context, userID int64, score float64) error {
	lock, _, err := r.lock(userID)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	rank, err := r.Ranks.FindOneByUserID(ctx, userID)
	if err != nil {
		return err
	}
	rank.Score = score
	return r.Ranks.Update(ctx, rank) // want unfencedwrite:"without a fencing token"
}

// RescoreVersioned writes with the version it read: fenced.
func (r *Ranker) RescoreVersioned(ctx context.Context, userID int64, score float64) error {
	lock, _, err := r.lock(userID)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	rank, err := r.Ranks.FindOneByUserID(ctx, userID)
	if err != nil {
		return err
	}
	rank.Score = score
	return r.Ranks.UpdateVersioned(ctx, rank)
}
