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

func NewTask(function any, parameters ...any) Task { panic("stub") }

type internalJob struct {
	name string
}

type scheduler struct{}

type JobDefinition interface {
	setup(j *internalJob, l *time.Location, now time.Time) error
}

type durationJobDefinition struct{ duration time.Duration }

func (d durationJobDefinition) setup(j *internalJob, l *time.Location, now time.Time) error {
	panic("stub")
}

func CronJob(crontab string, withSeconds bool) JobDefinition { panic("stub") }
func DurationJob(duration time.Duration) JobDefinition       { return durationJobDefinition{duration} }

type JobOption func(*internalJob, time.Time) error

func WithDistributedJobLocker(locker Locker) JobOption             { panic("stub") }
func WithDisabledDistributedJobLocker(disabled bool) JobOption     { panic("stub") }
func WithEventListeners(eventListeners ...EventListener) JobOption { panic("stub") }
func WithName(name string) JobOption                               { panic("stub") }
func WithSingletonMode(mode LimitMode) JobOption                   { panic("stub") }
func WithContext(ctx context.Context) JobOption                    { panic("stub") }

type EventListener func(*internalJob) error

func AfterLockError(eventListenerFunc func(jobID uuid.UUID, jobName string, err error)) EventListener {
	panic("stub")
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

func NewScheduler(options ...SchedulerOption) (Scheduler, error) { panic("stub") }

type SchedulerOption func(*scheduler) error

func WithDistributedElector(elector Elector) SchedulerOption { panic("stub") }
func WithDistributedLocker(locker Locker) SchedulerOption    { panic("stub") }

type LimitMode int

const (
	LimitModeReschedule = 1
	LimitModeWait       = 2
)
