// Package action keeps scenario executions in Redis. Its workers reach
// the store through the Service and Store interfaces main wires in.
package action

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Service interface {
	ProcessAbandoned(ctx context.Context) error
}

type service struct{ rdb *redis.Client }

func NewService(rdb *redis.Client) Service { return &service{rdb: rdb} }

// ProcessAbandoned marks the abandoned executions and drops the finished
// ones: two writes from the snapshot it read.
func (s *service) ProcessAbandoned(ctx context.Context) error {
	ids, err := s.rdb.SMembers(ctx, "executions").Result()
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := s.rdb.Set(ctx, "execution:"+id+":state", "abandoned", 0).Err(); err != nil {
			return err
		}
		if err := s.rdb.Del(ctx, "execution:"+id).Err(); err != nil {
			return err
		}
	}
	return nil
}

// scenarioWorker's one write is its call of the service: the lock's
// finding lists the writes that call reaches.
type scenarioWorker struct{ svc Service }

func NewScenarioWorker(svc Service) *scenarioWorker { return &scenarioWorker{svc: svc} }

func (w *scenarioWorker) Work(ctx context.Context) error {
	return w.svc.ProcessAbandoned(ctx)
}

type Store interface {
	Mark(ctx context.Context) error
}

type store struct{ rdb *redis.Client }

func NewStore(rdb *redis.Client) Store { return &store{rdb: rdb} }

// Mark makes one write: nothing to list.
func (s *store) Mark(ctx context.Context) error {
	return s.rdb.Set(ctx, "executions:touched", time.Now().Unix(), 0).Err()
}

// touchWorker's one write is a call that makes one write: its finding
// names it, with no list.
type touchWorker struct{ st Store }

func NewTouchWorker(st Store) *touchWorker { return &touchWorker{st: st} }

func (w *touchWorker) Touch(ctx context.Context) error {
	return w.st.Mark(ctx)
}

// Archive has two implementations that write: which one main wires is
// not known, so a caller whose one write is a Save lists neither's writes.
type Archive interface {
	Save(ctx context.Context, id string) error
}

type redisArchive struct{ rdb *redis.Client }

func NewRedisArchive(rdb *redis.Client) Archive { return &redisArchive{rdb: rdb} }

func (a *redisArchive) Save(ctx context.Context, id string) error {
	if err := a.rdb.Set(ctx, "archive:"+id, "done", 0).Err(); err != nil {
		return err
	}
	return a.rdb.Del(ctx, "execution:"+id).Err()
}

type ringArchive struct{ rdb *redis.Client }

func NewRingArchive(rdb *redis.Client) Archive { return &ringArchive{rdb: rdb} }

func (a *ringArchive) Save(ctx context.Context, id string) error {
	if err := a.rdb.LPush(ctx, "archive", id).Err(); err != nil {
		return err
	}
	return a.rdb.LTrim(ctx, "archive", 0, 999).Err()
}

type archiveWorker struct{ ar Archive }

func NewArchiveWorker(ar Archive) *archiveWorker { return &archiveWorker{ar: ar} }

func (w *archiveWorker) Archive(ctx context.Context) error {
	return w.ar.Save(ctx, "latest")
}
