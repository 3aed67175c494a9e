// Command manager runs the billing reconciler on the Kubernetes leader. The
// reconciler runs on a stop channel that is never closed, not on the ctx
// OnStartedLeading receives: that is safe only where losing the lease ends
// the process.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log"
	"os"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

func main() {
	follow := flag.Bool("follow", false, "stand by for leadership again after losing it")
	flag.Parse()
	cfg, err := rest.InClusterConfig()
	if err != nil {
		log.Fatal(err)
	}
	leases := coordinationv1client.NewForConfigOrDie(cfg)
	db, err := sql.Open("postgres", os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Name: "billing-manager", Namespace: "billing"},
		Client:     leases,
		LockConfig: resourcelock.ResourceLockConfig{Identity: os.Getenv("POD_NAME")},
	}
	if *follow {
		for {
			standBy(db, lock)
		}
	}
	if err := lead(db, lock); err != nil {
		log.Fatal(err)
	}
}

// lead returns when leadership is lost (RunOrDie returns before the lease
// runs out), and main returns with it: the reconciler ends with the
// process.
func lead(db *sql.DB, lock resourcelock.Interface) error {
	leaderelection.RunOrDie(context.Background(), leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) {
				reconcile(db, wait.NeverStop) // want unfencedwrite:"without a fencing token"
			},
			OnStoppedLeading: func() { log.Print("leadership lost, exiting") },
		},
	})
	return nil
}

// standBy is run again and again: the reconciler of a lost term keeps
// running while the process stands by, and another replica leads.
func standBy(db *sql.DB, lock resourcelock.Interface) {
	leaderelection.RunOrDie(context.Background(), leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { // want detachedrenewal:"never hears"
				reconcile(db, wait.NeverStop) // want unfencedwrite:"without a fencing token"
			},
			OnStoppedLeading: func() { log.Print("leadership lost") },
		},
	})
}

func reconcile(db *sql.DB, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Second):
		}
		db.Exec(`UPDATE accounts SET balance = ledger_total(id)`)
	}
}
