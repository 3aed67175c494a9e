// Package v1 is a minimal stub of k8s.io/api/core/v1.
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Secret struct {
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Data              map[string][]byte `json:"data,omitempty" protobuf:"bytes,2,rep,name=data"`
}

// DeepCopy is generated in client-go's API types; the stub copies the
// metadata and shares the data.
func (in *Secret) DeepCopy() *Secret {
	if in == nil {
		return nil
	}
	out := *in
	return &out
}

type Pod struct {
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Status            PodStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

type PodStatus struct {
	Message string `json:"message,omitempty" protobuf:"bytes,3,opt,name=message"`
}
