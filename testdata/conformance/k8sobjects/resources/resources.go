// Package resources builds the objects an operator wants to exist, as
// operators do in a package of their own (minio-operator's statefulsets).
package resources

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TenantResource is the tenants' custom resource.
var TenantResource = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "tenants"}

// TenantObject builds the tenant's custom resource afresh, unstructured.
func TenantObject(t Tenant) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Tenant")
	u.SetName(t.Name)
	u.SetNamespace(t.Namespace)
	_ = unstructured.SetNestedField(u.Object, int64(t.Replicas), "spec", "replicas")
	return u
}

// Tenant is what the operator deploys.
type Tenant struct {
	Name, Namespace string
	Replicas        int32
	Image           string
}

// NewStatefulSet builds the tenant's StatefulSet afresh: it has no
// resourceVersion.
func NewStatefulSet(t Tenant) *appsv1.StatefulSet {
	meta := metav1.ObjectMeta{Name: t.Name, Namespace: t.Namespace}
	meta.Labels = map[string]string{"tenant": t.Name}
	ss := &appsv1.StatefulSet{
		ObjectMeta: meta,
		Spec: appsv1.StatefulSetSpec{
			Replicas: &t.Replicas,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: podMeta(t),
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "server", Image: t.Image}}},
			},
		},
	}
	ss.Spec.Template.Spec.Containers = append(ss.Spec.Template.Spec.Containers, corev1.Container{Name: "sidecar"})
	return ss
}

// podMeta is the pod template's metadata: no object's version.
func podMeta(t Tenant) metav1.ObjectMeta {
	return metav1.ObjectMeta{Labels: map[string]string{"tenant": t.Name}}
}

// UpdatedStatefulSet is the wanted StatefulSet over the one read: it
// keeps the read object's metadata, resourceVersion included.
func UpdatedStatefulSet(current *appsv1.StatefulSet, t Tenant) *appsv1.StatefulSet {
	ss := &appsv1.StatefulSet{
		ObjectMeta: current.ObjectMeta,
		Spec:       current.Spec,
	}
	ss.Spec.Replicas = &t.Replicas
	return ss
}

// NewConfigSecret builds the tenant's configuration Secret afresh.
func NewConfigSecret(t Tenant, config []byte) (*corev1.Secret, error) {
	if len(config) == 0 {
		return nil, nil
	}
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: t.Name + "-config", Namespace: t.Namespace},
		Data:       map[string][]byte{"config.env": config},
	}, nil
}
