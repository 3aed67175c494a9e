// Package leaderelection is a stub of k8s.io/client-go/tools/leaderelection
// v0.37.2 for analysistest fixtures: real signatures, no behaviour.
package leaderelection

import (
	"context"
	"time"

	rl "k8s.io/client-go/tools/leaderelection/resourcelock"
)

type HealthzAdaptor struct{}

func NewLeaderHealthzAdaptor(timeout time.Duration) (_ *HealthzAdaptor) { return }

type LeaderElectionConfig struct {
	Lock rl.Interface

	LeaseDuration time.Duration
	RenewDeadline time.Duration
	RetryPeriod   time.Duration

	Callbacks LeaderCallbacks

	WatchDog *HealthzAdaptor

	ReleaseOnCancel bool

	Name string

	Coordinated bool
}

type LeaderCallbacks struct {
	OnStartedLeading func(context.Context)
	OnStoppedLeading func()
	OnNewLeader      func(identity string)
}

type LeaderElector struct {
	config         LeaderElectionConfig
	observedRecord rl.LeaderElectionRecord
}

func NewLeaderElector(lec LeaderElectionConfig) (_ *LeaderElector, _ error) { return }

func (le *LeaderElector) Run(ctx context.Context)                                { return }
func RunOrDie(ctx context.Context, lec LeaderElectionConfig)                     { return }
func (le *LeaderElector) GetLeader() (_ string)                                  { return }
func (le *LeaderElector) IsLeader() (_ bool)                                     { return }
func (le *LeaderElector) Check(maxTolerableExpiredLease time.Duration) (_ error) { return }
