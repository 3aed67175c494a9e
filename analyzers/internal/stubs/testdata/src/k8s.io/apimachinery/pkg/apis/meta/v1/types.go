// Package v1 is a minimal stub of k8s.io/apimachinery/pkg/apis/meta/v1.
package v1

import "time"

type Time struct {
	time.Time `protobuf:"-"`
}

func Now() (_ Time) { return }

type ObjectMeta struct {
	Name            string            `json:"name,omitempty"`
	Namespace       string            `json:"namespace,omitempty"`
	ResourceVersion string            `json:"resourceVersion,omitempty"`
	Labels          map[string]string `json:"labels,omitempty"`
}

func (meta *ObjectMeta) GetResourceVersion() string        { return meta.ResourceVersion }
func (meta *ObjectMeta) SetResourceVersion(version string) { meta.ResourceVersion = version }

type GetOptions struct {
	ResourceVersion string `json:"resourceVersion,omitempty"`
}

type UpdateOptions struct {
	DryRun []string `json:"dryRun,omitempty"`
}

type CreateOptions struct {
	DryRun []string `json:"dryRun,omitempty"`
}
