// Package runtime is a minimal stub of k8s.io/apimachinery/pkg/runtime.
package runtime

type Object interface {
	DeepCopyObject() Object
}
