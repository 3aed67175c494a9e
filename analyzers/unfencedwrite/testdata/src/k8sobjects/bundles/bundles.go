// Package bundles writes the CA bundle for whoever calls it. It imports
// no lock library, only the clientset, so it is analyzed because it calls
// a client's Update.
package bundles

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Overwrite replaces the bundle with a Secret built afresh.
func Overwrite(ctx context.Context, kube kubernetes.Interface, namespace string, bundle []byte) error {
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "ca-bundle", Namespace: namespace}, Data: map[string][]byte{"ca.crt": bundle}}
	_, err := kube.CoreV1().Secrets(namespace).Update(ctx, s, metav1.UpdateOptions{})
	return err
}

// NewKESSecret builds the key service's Secret afresh, in another package
// than the one that sends it (minio-operator's statefulsets.NewForKES).
func NewKESSecret(namespace string) *corev1.Secret {
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "kes", Namespace: namespace}}
	return s
}
