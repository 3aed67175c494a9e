// Package goctlmodel holds a go-zero service's analysis logic over models
// goctl generated (files with goctl's header), a model edited into an
// upsert, one whose key Insert leaves to the database and one written by
// hand, under a per-developer Consul lock.
package goctlmodel

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/hashicorp/consul/api"
	"github.com/zeromicro/go-zero/core/stores/sqlx"
)

// ErrNotFound is goctl's vars.go alias.
var ErrNotFound = sqlx.ErrNotFound

// SummaryModel is the customizable interface goctl generates around the
// generated one.
type SummaryModel interface {
	summaryModel
}

type logic struct {
	ctx     context.Context
	consul  *api.Client
	summary SummaryModel
	ranks   *defaultRankModel
	badges  *defaultBadgeModel
	regions *defaultRegionModel
	notes   *NoteModel
}

func (l *logic) acquire(id int64) (*api.Lock, error) {
	lock, err := l.consul.LockOpts(&api.LockOptions{Key: fmt.Sprintf("update-summary-%d", id), SessionTTL: "10s"})
	if err != nil {
		return nil, err
	}
	if _, err = lock.Lock(nil); err != nil {
		return nil, err
	}
	return lock, nil
}

// updateSummary inserts the developer's first row when the unique key's
// finder found none: a stale holder's second INSERT fails on the key and
// the function returns. The UPDATE after it overwrites.
func (l *logic) updateSummary(id int64, text string) (err error) {
	lock, err := l.acquire(id)
	if err != nil {
		return
	}
	defer lock.Unlock()
	var item *Summary
	if item, err = l.summary.FindOneByDeveloperId(l.ctx, id); err != nil {
		if errors.Is(err, ErrNotFound) {
			if _, err = l.summary.Insert(l.ctx, &Summary{
				DataUpdatedAt: time.Now(),
				DeveloperId:   id,
			}); err != nil {
				return
			}
			if item, err = l.summary.FindOneByDeveloperId(l.ctx, id); err != nil {
				return
			}
		} else {
			return
		}
	}
	item.Summary = text
	if err = l.summary.Update(l.ctx, item); err != nil { // want `summaryModel.Update .* without a fencing token`
		return
	}
	return
}

// insertIgnoringError carries on when the INSERT failed.
func (l *logic) insertIgnoringError(id int64) error {
	lock, err := l.acquire(id)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if _, err := l.summary.FindOneByDeveloperId(l.ctx, id); errors.Is(err, ErrNotFound) {
		l.summary.Insert(l.ctx, &Summary{DeveloperId: id}) // want `summaryModel.Insert .* without a fencing token`
	}
	return nil
}

// insertUnlooked inserts a 64-bit key it never looked the row up by: it
// may be an identifier drawn for this row alone.
func (l *logic) insertUnlooked(id int64) error {
	lock, err := l.acquire(id)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	_, err = l.summary.Insert(l.ctx, &Summary{DeveloperId: id}) // want `summaryModel.Insert .* without a fencing token`
	return err
}

// insertDrawnKey looks up and inserts a key drawn from the clock.
func (l *logic) insertDrawnKey(id int64) error {
	lock, err := l.acquire(id)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	key := time.Now().UnixNano()
	if _, err := l.summary.FindOneByDeveloperId(l.ctx, key); !errors.Is(err, ErrNotFound) {
		return err
	}
	_, err = l.summary.Insert(l.ctx, &Summary{DeveloperId: key}) // want `summaryModel.Insert .* without a fencing token`
	return err
}

// insertNoKey leaves the key field unset.
func (l *logic) insertNoKey(id int64) error {
	lock, err := l.acquire(id)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if _, err := l.summary.FindOneByDeveloperId(l.ctx, id); !errors.Is(err, ErrNotFound) {
		return err
	}
	_, err = l.summary.Insert(l.ctx, &Summary{Summary: "new"}) // want `summaryModel.Insert .* without a fencing token`
	return err
}

// upsertRank's model overwrites the score on a conflict.
func (l *logic) upsertRank(id int64, score float64) error {
	lock, err := l.acquire(id)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if _, err := l.ranks.FindOneByDeveloperId(l.ctx, id); !errors.Is(err, ErrNotFound) {
		return err
	}
	_, err = l.ranks.Insert(l.ctx, &Rank{DeveloperId: id, Score: score}) // want `defaultRankModel.Insert .* without a fencing token`
	return err
}

// insertBadge's INSERT does not set the unique code.
func (l *logic) insertBadge(id int64, code string) error {
	lock, err := l.acquire(id)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if _, err := l.badges.FindOneByCode(l.ctx, code); !errors.Is(err, ErrNotFound) {
		return err
	}
	_, err = l.badges.Insert(l.ctx, &Badge{Code: code, DeveloperId: id}) // want `defaultBadgeModel.Insert .* without a fencing token`
	return err
}

// insertRegion creates a region by its small code: a natural key.
func (l *logic) insertRegion(id int64, code int32, name string) error {
	lock, err := l.acquire(id)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	_, err = l.regions.Insert(l.ctx, &Region{RegionCode: code, Name: name})
	return err
}

// insertNote's model is hand-written: its finder tells no key.
func (l *logic) insertNote(id int64, text string) error {
	lock, err := l.acquire(id)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if _, err := l.notes.FindOneByDeveloperId(l.ctx, id); !errors.Is(err, ErrNotFound) {
		return err
	}
	_, err = l.notes.Insert(l.ctx, &Note{DeveloperId: id, Text: text}) // want `NoteModel.Insert .* without a fencing token`
	return err
}

// createWithNote creates the developer's first row, then appends a note:
// only the holder whose INSERT created the row gets past it, so the note
// is added once per developer, as after an INSERT a schema's key makes a
// create-if-absent.
func (l *logic) createWithNote(id int64, text string) error {
	lock, err := l.acquire(id)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if _, err := l.summary.FindOneByDeveloperId(l.ctx, id); !errors.Is(err, ErrNotFound) {
		return err
	}
	if _, err := l.summary.Insert(l.ctx, &Summary{DeveloperId: id}); err != nil {
		return err
	}
	_, err = l.notes.Insert(l.ctx, &Note{DeveloperId: id, Text: text})
	return err
}

// noteDespiteDuplicate appends the note also when its INSERT found the
// row there: a stale holder adds a second note.
func (l *logic) noteDespiteDuplicate(id int64, text string) error {
	lock, err := l.acquire(id)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if _, err := l.summary.FindOneByDeveloperId(l.ctx, id); !errors.Is(err, ErrNotFound) {
		return err
	}
	if _, err := l.summary.Insert(l.ctx, &Summary{DeveloperId: id}); err != nil {
		log.Printf("summary of %d: %v", id, err)
	}
	_, err = l.notes.Insert(l.ctx, &Note{DeveloperId: id, Text: text}) // want `NoteModel.Insert .* without a fencing token`
	return err
}
