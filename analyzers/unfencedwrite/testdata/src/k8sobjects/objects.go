// Package k8sobjects writes Kubernetes objects as the elected leader. An
// Update of an object read from the API server carries its
// resourceVersion, a compare-and-set the next leader's write makes fail;
// an object built afresh carries none and overwrites whatever is stored.
package k8sobjects

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"

	"k8sobjects/bundles"
)

type Publisher struct {
	kube      kubernetes.Interface
	namespace string
}

// newCASecret builds the CA bundle's Secret afresh.
func newCASecret(namespace string, bundle []byte) *corev1.Secret {
	s := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "ca-bundle", Namespace: namespace},
	}
	s.Data = map[string][]byte{"ca.crt": bundle}
	return s
}

// copiedSecret keeps the metadata of the Secret it is given, version and
// all: not a fresh object.
func copiedSecret(from *corev1.Secret, bundle []byte) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: from.ObjectMeta, Data: map[string][]byte{"ca.crt": bundle}}
}

// publish overwrites the bundle with the one this leader built.
func (p *Publisher) publish(ctx context.Context, bundle []byte) error {
	_, err := p.kube.CoreV1().Secrets(p.namespace).Update(ctx, newCASecret(p.namespace, bundle), metav1.UpdateOptions{}) // want `SecretInterface.Update writes to the Kubernetes API without a fencing token while the Kubernetes leader election lease \(OnStartedLeading\) \(line \d+, in Publisher.Lead, under which every call of Publisher.publish is made\) is held: .*update the object you read`
	return err
}

// rotate updates the Secret read: the API server refuses it once the
// next leader wrote the Secret.
func (p *Publisher) rotate(ctx context.Context, bundle []byte) error {
	s, err := p.kube.CoreV1().Secrets(p.namespace).Get(ctx, "ca-bundle", metav1.GetOptions{})
	if err != nil {
		return err
	}
	s.Data["ca.crt"] = bundle
	_, err = p.kube.CoreV1().Secrets(p.namespace).Update(ctx, s, metav1.UpdateOptions{})
	return err
}

// replace builds the Secret afresh and copies onto it the version it has
// just read: the compare always passes, so the bundle this leader built
// replaces whatever the next leader stored (a blind swap).
func (p *Publisher) replace(ctx context.Context, bundle []byte) error {
	current, err := p.kube.CoreV1().Secrets(p.namespace).Get(ctx, "ca-bundle", metav1.GetOptions{})
	if err != nil {
		return err
	}
	s := newCASecret(p.namespace, bundle)
	s.ResourceVersion = current.ResourceVersion
	_, err = p.kube.CoreV1().Secrets(p.namespace).Update(ctx, s, metav1.UpdateOptions{}) // want `SecretInterface.Update \(its resourceVersion copied from an object read just before\) writes to the Kubernetes API without a fencing token`
	return err
}

// adopt sends a Secret that keeps the metadata it read, version and all:
// read as the object read (what a helper copies is not followed).
func (p *Publisher) adopt(ctx context.Context, bundle []byte) error {
	current, err := p.kube.CoreV1().Secrets(p.namespace).Get(ctx, "ca-bundle", metav1.GetOptions{})
	if err != nil {
		return err
	}
	_, err = p.kube.CoreV1().Secrets(p.namespace).Update(ctx, copiedSecret(current, bundle), metav1.UpdateOptions{})
	return err
}

// restore writes the bundle at the version the caller read it at, with
// the Secret it took the bundle from: a compare-and-set on that read.
func (p *Publisher) restore(ctx context.Context, read *corev1.Secret, bundle []byte) error {
	s := newCASecret(p.namespace, bundle)
	s.ResourceVersion = read.ResourceVersion
	_, err := p.kube.CoreV1().Secrets(p.namespace).Update(ctx, s, metav1.UpdateOptions{})
	return err
}

// refresh changes a copy of the Secret it read; the copy keeps the
// version, set again by hand: the read-modify-write client-go documents.
func (p *Publisher) refresh(ctx context.Context, bundle []byte) error {
	current, err := p.kube.CoreV1().Secrets(p.namespace).Get(ctx, "ca-bundle", metav1.GetOptions{})
	if err != nil {
		return err
	}
	s := current.DeepCopy()
	s.Data["ca.crt"] = bundle
	s.SetResourceVersion(current.GetResourceVersion())
	_, err = p.kube.CoreV1().Secrets(p.namespace).Update(ctx, s, metav1.UpdateOptions{})
	return err
}

// updateSecret sends the Secret its caller gives it, at the caller's
// version: it fences as well as its callers' objects do.
func (p *Publisher) updateSecret(ctx context.Context, s *corev1.Secret) error {
	_, err := p.kube.CoreV1().Secrets(p.namespace).Update(ctx, s, metav1.UpdateOptions{})
	return err
}

// createOrUpdate copies the stored version onto the Secret it built and
// hands it to updateSecret (redis-operator's CreateOrUpdateStatefulSet): a
// blind swap one call away.
func (p *Publisher) createOrUpdate(ctx context.Context, bundle []byte) error {
	stored, err := p.kube.CoreV1().Secrets(p.namespace).Get(ctx, "ca-bundle", metav1.GetOptions{})
	if err != nil {
		return err
	}
	desired := newCASecret(p.namespace, bundle)
	desired.ResourceVersion = stored.ResourceVersion
	return p.updateSecret(ctx, desired) // want `Publisher.updateSecret \(SecretInterface.Update at objects.go:\d+; its resourceVersion copied from an object read just before\) writes to the Kubernetes API without a fencing token`
}

// edit hands updateSecret a copy of the Secret it read: a compare-and-set.
func (p *Publisher) edit(ctx context.Context, bundle []byte) error {
	stored, err := p.kube.CoreV1().Secrets(p.namespace).Get(ctx, "ca-bundle", metav1.GetOptions{})
	if err != nil {
		return err
	}
	s := stored.DeepCopy()
	s.Data["ca.crt"] = bundle
	return p.updateSecret(ctx, s)
}

// forward passes its own caller's Secret on: the version is the caller's.
func (p *Publisher) forward(ctx context.Context, s *corev1.Secret) error {
	return p.updateSecret(ctx, s)
}

// reportStatus writes a status of its own making over the pod's.
func (p *Publisher) reportStatus(ctx context.Context, pod string) error {
	status := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: pod, Namespace: p.namespace}}
	status.Status.Message = "bundle published"
	_, err := p.kube.CoreV1().Pods(p.namespace).UpdateStatus(ctx, status, metav1.UpdateOptions{}) // want `PodInterface.UpdateStatus writes to the Kubernetes API without a fencing token`
	return err
}

func (p *Publisher) Lead(ctx context.Context, lock resourcelock.Interface, bundle []byte) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				_ = p.publish(ctx, bundle)
				_ = p.rotate(ctx, bundle) // a compare-and-set on the version read
				_ = p.replace(ctx, bundle)
				_ = p.adopt(ctx, bundle)   // the metadata read, copied by a helper
				_ = p.refresh(ctx, bundle) // a copy of the object read
				if read, err := p.kube.CoreV1().Secrets(p.namespace).Get(ctx, "ca-bundle", metav1.GetOptions{}); err == nil {
					_ = p.restore(ctx, read, bundle) // the version the caller read
				}
				_ = p.createOrUpdate(ctx, bundle)
				_ = p.edit(ctx, bundle)                                   // a copy of the object read, sent by a helper
				_ = p.updateSecret(ctx, newCASecret(p.namespace, bundle)) // want `Publisher.updateSecret \(SecretInterface.Update at objects.go:\d+\) writes to the Kubernetes API without a fencing token`
				if read, err := p.kube.CoreV1().Secrets(p.namespace).Get(ctx, "ca-bundle", metav1.GetOptions{}); err == nil {
					_ = p.forward(ctx, read) // the object read, through two helpers
				}
				_ = bundles.Overwrite(ctx, p.kube, p.namespace, bundle) // want `bundles.Overwrite \(SecretInterface.Update at bundles.go:\d+\) writes to the Kubernetes API without a fencing token`
				_ = p.reportStatus(ctx, "publisher-0")
			},
			OnStoppedLeading: func() {},
		},
	})
}
