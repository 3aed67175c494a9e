package gozerostore

import (
	"context"
	"errors"

	"github.com/zeromicro/go-zero/core/stores/cache"
	"github.com/zeromicro/go-zero/core/stores/sqlx"
)

// ErrProfileNotFound is what the profile model's finder returns for no row.
var ErrProfileNotFound = sqlx.ErrNotFound

// ProfileModel is the customizable model around the generated one.
type ProfileModel interface {
	profileModel
}

type customProfileModel struct {
	*defaultProfileModel
}

// NewProfileModel returns the profile model over conn.
func NewProfileModel(conn sqlx.SqlConn, c cache.CacheConf) ProfileModel {
	return &customProfileModel{defaultProfileModel: newProfileModel(conn, c)}
}

// Profiles creates users' profiles under the rank lock.
type Profiles struct {
	Ranker   *Ranker
	Profiles ProfileModel
}

// Ensure creates the user's first profile row when the unique key's finder
// found none: a stale holder's second INSERT fails on UNIQUE (user_id).
func (p *Profiles) Ensure(ctx context.Context, userID int64) error {
	lock, _, err := p.Ranker.lock(userID)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if _, err := p.Profiles.FindOneByUserId(ctx, userID); !errors.Is(err, ErrProfileNotFound) {
		return err
	}
	_, err = p.Profiles.Insert(ctx, &Profile{UserId: userID})
	return err
}

// EnsureBlind inserts without heeding the error: it carries on as if it
// had created the row.
func (p *Profiles) EnsureBlind(ctx context.Context, userID int64) {
	lock, _, err := p.Ranker.lock(userID)
	if err != nil {
		return
	}
	defer lock.Unlock()
	if _, err := p.Profiles.FindOneByUserId(ctx, userID); errors.Is(err, ErrProfileNotFound) {
		p.Profiles.Insert(ctx, &Profile{UserId: userID}) // want unfencedwrite:"without a fencing token"
	}
}
