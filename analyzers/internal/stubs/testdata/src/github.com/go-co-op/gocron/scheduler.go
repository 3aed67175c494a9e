// Package gocron is a stub of github.com/go-co-op/gocron v1.37.0 for
// analysistest fixtures: real signatures, no behaviour.
package gocron

import (
	"context"
	"time"
)

type Locker interface {
	Lock(ctx context.Context, key string) (Lock, error)
}

type Lock interface {
	Unlock(ctx context.Context) error
}

type Elector interface {
	IsLeader(ctx context.Context) error
}

type Job struct{}

type Scheduler struct{}

func NewScheduler(loc *time.Location) (_ *Scheduler) { return }

func (s *Scheduler) Every(interval interface{}) (_ *Scheduler) { return }
func (s *Scheduler) Cron(cronExpression string) (_ *Scheduler) { return }
func (s *Scheduler) Name(name string) (_ *Scheduler)           { return }
func (s *Scheduler) Tag(t ...string) (_ *Scheduler)            { return }
func (s *Scheduler) Minute() (_ *Scheduler)                    { return }
func (s *Scheduler) Minutes() (_ *Scheduler)                   { return }
func (s *Scheduler) Hour() (_ *Scheduler)                      { return }
func (s *Scheduler) SingletonMode() (_ *Scheduler)             { return }
func (s *Scheduler) WithDistributedLocker(l Locker)            {}
func (s *Scheduler) WithDistributedElector(e Elector)          {}
func (s *Scheduler) StartAsync()                               {}
func (s *Scheduler) StartBlocking()                            {}
func (s *Scheduler) Stop()                                     {}
func (s *Scheduler) Do(jobFun interface{}, params ...interface{}) (_ *Job, _ error) {
	return
}
func (s *Scheduler) DoWithJobDetails(jobFun interface{}, params ...interface{}) (_ *Job, _ error) {
	return
}
