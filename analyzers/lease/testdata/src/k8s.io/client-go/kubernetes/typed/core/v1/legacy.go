package v1

import corev1 "k8s.io/api/core/v1"

// LegacySecretInterface is SecretInterface as client-go spelled it before
// 0.18 (stolon pins 0.17): no context, no options, the object alone. It
// extends the shared stub for the lease package's tests only.
type LegacySecretInterface interface {
	Update(secret *corev1.Secret) (*corev1.Secret, error)
}
