package k8sobjects

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"

	"k8sobjects/bundles"
)

// TenantController is built the way minio-operator's is: the elected
// leader starts workers with wait.Until, and each worker hands its sync
// handler, a method value, to a queue helper that calls it for every key.
// The handler rebuilds two Secrets afresh, one in a helper of its own:
// the finding at the worker's start lists both writes the handler
// reaches, not only the one it names. Its guard on the key, `if tenant ==
// "" { return nil }`, makes both writes need a key; the helper that runs
// the handler passes whatever the queue holds, so both are listed.
type TenantController struct {
	kube  kubernetes.Interface
	queue chan string
}

func (c *TenantController) Lead(ctx context.Context, lock resourcelock.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock: lock,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { c.leaderRun(ctx) },
			OnStoppedLeading: func() {},
		},
	})
}

func (c *TenantController) leaderRun(ctx context.Context) {
	go wait.Until(c.runWorker, time.Second, ctx.Done()) // want `wait.Until\(TenantController.runWorker\) \(SecretInterface.Update at workers.go:\d+, via TenantController.syncHandler; it reaches 2 unfenced writes: TenantController.checkKES at workers.go:\d+, SecretInterface.Update at workers.go:\d+\) writes to the Kubernetes API without a fencing token`
	<-ctx.Done()
}

func (c *TenantController) runWorker() {
	for processNextItem(c.queue, c.syncHandler) {
	}
}

// processNextItem calls the handler it is handed for the next key.
func processNextItem(queue chan string, handler func(string) error) bool {
	key, ok := <-queue
	if !ok {
		return false
	}
	_ = handler(key)
	return true
}

func (c *TenantController) syncHandler(tenant string) error {
	if tenant == "" {
		return nil
	}
	if err := c.checkKES(tenant); err != nil {
		return err
	}
	_, err := c.kube.CoreV1().Secrets(tenant).Update(context.Background(), newCASecret(tenant, nil), metav1.UpdateOptions{})
	return err
}

func (c *TenantController) checkKES(tenant string) error {
	kes := bundles.NewKESSecret(tenant)
	_, err := c.kube.CoreV1().Secrets(tenant).Update(context.Background(), kes, metav1.UpdateOptions{})
	return err
}
