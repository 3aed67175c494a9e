// Package v1 is a minimal stub of k8s.io/client-go/kubernetes/typed/coordination/v1.
package v1

import (
	"context"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type CoordinationV1Interface interface {
	LeasesGetter
}

type LeasesGetter interface {
	Leases(namespace string) LeaseInterface
}

type LeaseInterface interface {
	Create(ctx context.Context, lease *coordinationv1.Lease, opts metav1.CreateOptions) (*coordinationv1.Lease, error)
	Update(ctx context.Context, lease *coordinationv1.Lease, opts metav1.UpdateOptions) (*coordinationv1.Lease, error)
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*coordinationv1.Lease, error)
}
