// Package v1 is a minimal stub of k8s.io/client-go/kubernetes/typed/core/v1.
package v1

type CoreV1Interface interface {
	RESTClientName() string
}
