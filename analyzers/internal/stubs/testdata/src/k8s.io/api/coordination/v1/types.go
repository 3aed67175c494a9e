// Package v1 is a minimal stub of k8s.io/api/coordination/v1.
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type CoordinatedLeaseStrategy string

type Lease struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              LeaseSpec `json:"spec,omitempty"`
}

type LeaseSpec struct {
	HolderIdentity       *string `json:"holderIdentity,omitempty"`
	LeaseDurationSeconds *int32  `json:"leaseDurationSeconds,omitempty"`
	LeaseTransitions     *int32  `json:"leaseTransitions,omitempty"`
}
