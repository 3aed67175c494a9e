// Package v1 is a minimal stub of k8s.io/client-go/kubernetes/typed/core/v1.
package v1

// CoreV1Interface is the core client; the stub lists none of its methods.
type CoreV1Interface interface{}
