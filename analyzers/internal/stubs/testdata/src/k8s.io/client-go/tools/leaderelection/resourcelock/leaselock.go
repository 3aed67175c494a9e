package resourcelock

import (
	"context"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"
)

type LeaseLock struct {
	LeaseMeta  metav1.ObjectMeta
	Client     coordinationv1client.LeasesGetter
	LockConfig ResourceLockConfig
	lease      *coordinationv1.Lease
	Labels     map[string]string
}

func (ll *LeaseLock) Get(ctx context.Context) (_ *LeaderElectionRecord, _ []byte, _ error) { return }
func (ll *LeaseLock) Create(ctx context.Context, ler LeaderElectionRecord) (_ error)       { return }
func (ll *LeaseLock) Update(ctx context.Context, ler LeaderElectionRecord) (_ error)       { return }
func (ll *LeaseLock) RecordEvent(s string)                                                 {}
func (ll *LeaseLock) Describe() (_ string)                                                 { return }
func (ll *LeaseLock) Identity() string                                                     { return ll.LockConfig.Identity }
