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
	_, err := p.kube.CoreV1().Secrets(p.namespace).Update(ctx, newCASecret(p.namespace, bundle), metav1.UpdateOptions{})
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

// replace builds the Secret afresh but sends the version it read.
func (p *Publisher) replace(ctx context.Context, bundle []byte) error {
	current, err := p.kube.CoreV1().Secrets(p.namespace).Get(ctx, "ca-bundle", metav1.GetOptions{})
	if err != nil {
		return err
	}
	s := newCASecret(p.namespace, bundle)
	s.ResourceVersion = current.ResourceVersion
	if _, err := p.kube.CoreV1().Secrets(p.namespace).Update(ctx, s, metav1.UpdateOptions{}); err != nil {
		return err
	}
	_, err = p.kube.CoreV1().Secrets(p.namespace).Update(ctx, copiedSecret(current, bundle), metav1.UpdateOptions{})
	return err
}

// reportStatus writes a status of its own making over the pod's.
func (p *Publisher) reportStatus(ctx context.Context, pod string) error {
	status := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: pod, Namespace: p.namespace}}
	status.Status.Message = "bundle published"
	_, err := p.kube.CoreV1().Pods(p.namespace).UpdateStatus(ctx, status, metav1.UpdateOptions{})
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
				_ = p.publish(ctx, bundle)                              // want `Publisher.publish \(SecretInterface.Update at objects.go:\d+\) writes to the Kubernetes API without a fencing token while the Kubernetes leader election lease \(OnStartedLeading\) \(line \d+\) is held: .*update the object you read`
				_ = p.rotate(ctx, bundle)                               // a compare-and-set on the version read
				_ = p.replace(ctx, bundle)                              // the version read, set by hand or copied
				_ = bundles.Overwrite(ctx, p.kube, p.namespace, bundle) // want `bundles.Overwrite \(SecretInterface.Update at bundles.go:\d+\) writes to the Kubernetes API without a fencing token`
				_ = p.reportStatus(ctx, "publisher-0")                  // want `Publisher.reportStatus \(PodInterface.UpdateStatus at objects.go:\d+\) writes to the Kubernetes API without a fencing token`
			},
			OnStoppedLeading: func() {},
		},
	})
}
