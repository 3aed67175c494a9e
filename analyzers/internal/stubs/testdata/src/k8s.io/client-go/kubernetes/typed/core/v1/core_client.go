// Package v1 is a minimal stub of k8s.io/client-go/kubernetes/typed/core/v1.
package v1

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type CoreV1Interface interface {
	SecretsGetter
	PodsGetter
}

type SecretsGetter interface {
	Secrets(namespace string) SecretInterface
}

type SecretInterface interface {
	Create(ctx context.Context, secret *corev1.Secret, opts metav1.CreateOptions) (*corev1.Secret, error)
	Update(ctx context.Context, secret *corev1.Secret, opts metav1.UpdateOptions) (*corev1.Secret, error)
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.Secret, error)
}

type PodsGetter interface {
	Pods(namespace string) PodInterface
}

type PodInterface interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.Pod, error)
	UpdateStatus(ctx context.Context, pod *corev1.Pod, opts metav1.UpdateOptions) (*corev1.Pod, error)
}
