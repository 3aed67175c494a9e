// want package:"lease facts"

// Package kubelegacy updates Secrets through client-go before 0.18, whose
// Update takes the object as its only argument, under a redsync lock.
package kubelegacy

import (
	"github.com/go-redsync/redsync/v4"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	v1 "k8s.io/client-go/kubernetes/typed/core/v1"
)

// rotate updates the Secret it was handed: the version it was read at,
// fenced as well as its callers' Secrets are.
func rotate(secrets v1.LegacySecretInterface, s *corev1.Secret) error { // want rotate:"fenced by param 1"
	_, err := secrets.Update(s) // want `fenced`
	return err
}

// publish updates a Secret it built: no version.
func publish(secrets v1.LegacySecretInterface) error { // want publish:"writes LegacySecretInterface.Update"
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "ca-bundle"}}
	_, err := secrets.Update(s) // want `unfenced`
	return err
}

// Publish publishes as no holder, on an operator's request: publish is not
// only the leader's, so its write stays its callers' to judge.
func Publish(secrets v1.LegacySecretInterface) error { // want Publish:"writes LegacySecretInterface.Update at legacy.go:24, via kubelegacy.publish"
	return publish(secrets) // want `unfenced`
}

// reset hands rotate a Secret it built: the Update sends no version.
func reset(secrets v1.LegacySecretInterface) error { // want reset:"writes LegacySecretInterface.Update at legacy.go:17, via kubelegacy.rotate"
	return rotate(secrets, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "ca-bundle"}}) // want `unfenced`
}

// lead publishes the bundle while it holds the lock.
func lead(m *redsync.Mutex, secrets v1.LegacySecretInterface) error { // want lead:"lookup"
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	return publish(secrets) // want `unfenced`
}
