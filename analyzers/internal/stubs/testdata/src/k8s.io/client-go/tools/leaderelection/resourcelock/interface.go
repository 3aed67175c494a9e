// Package resourcelock is a stub of
// k8s.io/client-go/tools/leaderelection/resourcelock v0.37.2 for
// analysistest fixtures: real signatures, no behaviour.
package resourcelock

import (
	"context"

	v1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	coordinationv1 "k8s.io/client-go/kubernetes/typed/coordination/v1"
	corev1 "k8s.io/client-go/kubernetes/typed/core/v1"
)

const LeasesResourceLock = "leases"

type LeaderElectionRecord struct {
	HolderIdentity       string                      `json:"holderIdentity"`
	LeaseDurationSeconds int                         `json:"leaseDurationSeconds"`
	AcquireTime          metav1.Time                 `json:"acquireTime"`
	RenewTime            metav1.Time                 `json:"renewTime"`
	LeaderTransitions    int                         `json:"leaderTransitions"`
	Strategy             v1.CoordinatedLeaseStrategy `json:"strategy"`
	PreferredHolder      string                      `json:"preferredHolder"`
}

type EventRecorder interface {
	Eventf(obj runtime.Object, eventType, reason, message string, args ...interface{})
}

type ResourceLockConfig struct {
	Identity      string
	EventRecorder EventRecorder
}

type Interface interface {
	Get(ctx context.Context) (*LeaderElectionRecord, []byte, error)
	Create(ctx context.Context, ler LeaderElectionRecord) error
	Update(ctx context.Context, ler LeaderElectionRecord) error
	RecordEvent(string)
	Identity() string
	Describe() string
}

func New(lockType string, ns string, name string, coreClient corev1.CoreV1Interface, coordinationClient coordinationv1.CoordinationV1Interface, rlc ResourceLockConfig) (_ Interface, _ error) {
	return
}
