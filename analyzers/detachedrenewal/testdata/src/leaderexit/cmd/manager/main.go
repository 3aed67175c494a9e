// Command manager runs its controllers while it leads. It does not stop
// them when leadership is lost: it exits, and they end with the process.
package main

import (
	"context"
	"database/sql"
	"log"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

func main() {
	db, err := sql.Open("postgres", "")
	if err != nil {
		log.Fatal(err)
	}
	if err := run(db); err != nil {
		log.Fatal(err)
	}
}

// run returns when leadership is lost, and main returns with it: the
// controllers, which run on wait.NeverStop, cannot outlive the lease.
func run(db *sql.DB) error {
	lock, err := newLock()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) {
				controllers(db, wait.NeverStop)
			},
			OnStoppedLeading: func() { log.Print("leadership lost") },
		},
	})
	log.Print("exiting")
	return nil
}

func newLock() (resourcelock.Interface, error) {
	return resourcelock.New(resourcelock.LeasesResourceLock, "kube-system", "manager", nil, nil, resourcelock.ResourceLockConfig{Identity: "a"})
}

func controllers(db *sql.DB, stop <-chan struct{}) {
	wait.Until(func() {
		db.Exec(`UPDATE status SET beat = now()`)
	}, time.Second, stop)
}
