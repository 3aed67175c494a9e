// Package k8sobjects is an operator that writes Kubernetes objects while it
// is the elected leader. An Update of an object read from the API server
// (a Get, a lister, a List item) carries its resourceVersion and fails
// once another leader wrote the object: a compare-and-set. An Update of an
// object built afresh carries none, and the API server applies it over
// whatever the next leader wrote.
package k8sobjects

import (
	"context"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fencelint/fencelint/testdata/conformance/k8sobjects/resources"
)

type Operator struct {
	kube    kubernetes.Interface
	dyn     dynamic.Interface
	ctrl    client.Client
	sets    appslisters.StatefulSetLister
	queue   chan resources.Tenant
	tenants []resources.Tenant
}

func (o *Operator) Lead(ctx context.Context, lock resourcelock.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				go wait.Until(o.runWorker, time.Second, ctx.Done()) // want unfencedwrite:"wait.Until\\(Operator.runWorker\\) \\(StatefulSetInterface.Update at operator.go:\\d+, via k8sobjects.processNextItem\\(Operator.syncTenant\\)\\) writes to the Kubernetes API without a fencing token"
				for _, t := range o.tenants {
					_ = o.writeConfig(ctx, t, []byte("x"))
					_ = o.resetStatus(ctx, t)
					_ = o.scaleListed(ctx, t)
					_ = o.scaleRead(ctx, t)
					_ = o.replaceAtVersion(ctx, t)
					_ = o.applyTenant(ctx, t)
					_ = o.relabelClaims(ctx, t)
					_ = o.markReady(ctx, t)
				}
			},
			OnStoppedLeading: func() {},
		},
	})
}

func (o *Operator) runWorker() {
	for processNextItem(o.queue, o.syncTenant) {
	}
}

func processNextItem(queue chan resources.Tenant, sync func(context.Context, resources.Tenant) error) bool {
	t, ok := <-queue
	if !ok {
		return false
	}
	process := func(t resources.Tenant) error {
		return sync(context.Background(), t)
	}
	_ = process(t)
	return true
}

// syncTenant replaces the tenant's StatefulSet with one built afresh:
// a leader paused past its lease rolls back the next leader's rollout.
func (o *Operator) syncTenant(ctx context.Context, t resources.Tenant) error {
	ss := resources.NewStatefulSet(t)
	_, err := o.kube.AppsV1().StatefulSets(t.Namespace).Update(ctx, ss, metav1.UpdateOptions{})
	return err
}

// writeConfig overwrites the config Secret with a fresh one.
func (o *Operator) writeConfig(ctx context.Context, t resources.Tenant, config []byte) error {
	secret, err := resources.NewConfigSecret(t, config)
	if err != nil || secret == nil {
		return err
	}
	_, err = o.kube.CoreV1().Secrets(t.Namespace).Update(ctx, secret, metav1.UpdateOptions{}) // want unfencedwrite:"SecretInterface.Update writes to the Kubernetes API without a fencing token"
	return err
}

// resetStatus writes a status built from nothing over the stored one.
func (o *Operator) resetStatus(ctx context.Context, t resources.Tenant) error {
	ss := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: t.Name, Namespace: t.Namespace}}
	ss.Status.Replicas = 0
	return o.ctrl.Status().Update(ctx, ss) // want unfencedwrite:"SubResourceWriter.Update writes to the Kubernetes API"
}

// scaleListed updates a copy of the lister's object: it keeps the
// resourceVersion the informer saw.
func (o *Operator) scaleListed(ctx context.Context, t resources.Tenant) error {
	current, err := o.sets.StatefulSets(t.Namespace).Get(t.Name)
	if err != nil {
		return err
	}
	ss := current.DeepCopy()
	ss.Spec.Replicas = &t.Replicas
	_, err = o.kube.AppsV1().StatefulSets(t.Namespace).Update(ctx, ss, metav1.UpdateOptions{})
	return err
}

// scaleRead updates the object a Get returned, through controller-runtime.
func (o *Operator) scaleRead(ctx context.Context, t resources.Tenant) error {
	var ss appsv1.StatefulSet
	if err := o.ctrl.Get(ctx, types.NamespacedName{Namespace: t.Namespace, Name: t.Name}, &ss); err != nil {
		return err
	}
	ss.Spec.Replicas = &t.Replicas
	return o.ctrl.Update(ctx, &ss)
}

// replaceAtVersion builds the object afresh and copies onto it the version
// it has just read: a blind swap, which the API server's compare always
// lets through. The second Update changes the object read.
func (o *Operator) replaceAtVersion(ctx context.Context, t resources.Tenant) error {
	current, err := o.kube.AppsV1().StatefulSets(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	ss := resources.NewStatefulSet(t)
	ss.ResourceVersion = current.ResourceVersion
	_, err = o.kube.AppsV1().StatefulSets(t.Namespace).Update(ctx, ss, metav1.UpdateOptions{}) // want unfencedwrite:"StatefulSetInterface.Update \\(its resourceVersion copied from an object read just before\\) writes to the Kubernetes API without a fencing token"
	if err != nil {
		return err
	}
	wanted := resources.UpdatedStatefulSet(current, t)
	_, err = o.kube.AppsV1().StatefulSets(t.Namespace).Update(ctx, wanted, metav1.UpdateOptions{})
	return err
}

// applyTenant writes the tenant's custom resource through the dynamic
// client, with the version of the copy it has just read: a blind swap.
func (o *Operator) applyTenant(ctx context.Context, t resources.Tenant) error {
	tenants := o.dyn.Resource(resources.TenantResource).Namespace(t.Namespace)
	current, err := tenants.Get(ctx, t.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	desired := resources.TenantObject(t)
	desired.SetResourceVersion(current.GetResourceVersion())
	_, err = tenants.Update(ctx, desired, metav1.UpdateOptions{}) // want unfencedwrite:"ResourceInterface.Update \\(its resourceVersion copied from an object read just before\\) writes to the Kubernetes API without a fencing token"
	return err
}

// relabelClaims updates the claims a List returned, each at its version.
func (o *Operator) relabelClaims(ctx context.Context, t resources.Tenant) error {
	claims, err := o.kube.CoreV1().PersistentVolumeClaims(t.Namespace).List(ctx, metav1.ListOptions{LabelSelector: "tenant=" + t.Name})
	if err != nil {
		return err
	}
	for _, pvc := range claims.Items {
		pvc.Labels["relabelled"] = "true"
		if _, err := o.kube.CoreV1().PersistentVolumeClaims(t.Namespace).Update(ctx, &pvc, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// markReady sets the status of the pod read, through the typed client.
func (o *Operator) markReady(ctx context.Context, t resources.Tenant) error {
	pod, err := o.kube.CoreV1().Pods(t.Namespace).Get(ctx, t.Name+"-0", metav1.GetOptions{})
	if err != nil {
		return err
	}
	pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue})
	_, err = o.kube.CoreV1().Pods(t.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
	return err
}
