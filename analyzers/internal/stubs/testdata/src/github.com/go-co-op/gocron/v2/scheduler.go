// Package gocron is a stub of github.com/go-co-op/gocron/v2 v2.21.2 for
// analysistest fixtures: real signatures, no behaviour.
package gocron

import (
	"context"
	"time"

	"github.com/google/uuid"
)

type Elector interface {
	IsLeader(context.Context) error
}

type Locker interface {
	Lock(ctx context.Context, key string) (Lock, error)
}

type Lock interface {
	Unlock(ctx context.Context) error
}

type task struct {
	function   any
	parameters []any
}

type Task func() task

func NewTask(function any, parameters ...any) (_ Task) { return }

type internalJob struct {
	name string
}

type scheduler struct{}

type JobDefinition interface {
	setup(j *internalJob, l *time.Location, now time.Time) error
}

type durationJobDefinition struct{ duration time.Duration }

func (d durationJobDefinition) setup(j *internalJob, l *time.Location, now time.Time) (_ error) {
	return
}

func CronJob(crontab string, withSeconds bool) (_ JobDefinition) { return }
func DurationJob(duration time.Duration) JobDefinition           { return durationJobDefinition{duration} }

type JobOption func(*internalJob, time.Time) error

func WithDistributedJobLocker(locker Locker) (_ JobOption)             { return }
func WithDisabledDistributedJobLocker(disabled bool) (_ JobOption)     { return }
func WithEventListeners(eventListeners ...EventListener) (_ JobOption) { return }
func WithName(name string) (_ JobOption)                               { return }
func WithSingletonMode(mode LimitMode) (_ JobOption)                   { return }
func WithContext(ctx context.Context) (_ JobOption)                    { return }

type EventListener func(*internalJob) error

func AfterLockError(eventListenerFunc func(jobID uuid.UUID, jobName string, err error)) (_ EventListener) {
	return
}

type Job interface {
	ID() uuid.UUID
	Name() string
	NextRun() (time.Time, error)
	RunNow() error
	Tags() []string
}

type Scheduler interface {
	Jobs() []Job
	NewJob(JobDefinition, Task, ...JobOption) (Job, error)
	RemoveJob(uuid.UUID) error
	Shutdown() error
	Start()
}

func NewScheduler(options ...SchedulerOption) (_ Scheduler, _ error) { return }

type SchedulerOption func(*scheduler) error

func WithDistributedElector(elector Elector) (_ SchedulerOption) { return }
func WithDistributedLocker(locker Locker) (_ SchedulerOption)    { return }

type LimitMode int

const (
	LimitModeReschedule = 1
	LimitModeWait       = 2
)
