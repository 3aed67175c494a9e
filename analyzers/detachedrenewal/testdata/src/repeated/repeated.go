// Package repeated renews from functions that k8s.io/apimachinery's wait
// package calls again and again.
package repeated

import (
	"context"
	"database/sql"
	"log"
	"time"

	"github.com/bsm/redislock"
	"k8s.io/apimachinery/pkg/util/wait"
)

type job struct {
	db *sql.DB
}

// untilLogs: returning from the function wait.Until runs is a retry.
func (j *job) untilLogs(ctx context.Context, lock *redislock.Lock, stop <-chan struct{}) {
	go wait.Until(func() { // want `this goroutine renews the bsm/redislock lock with Lock.Refresh \(line 22\)`
		if err := lock.Refresh(ctx, 10*time.Second, nil); err != nil {
			log.Print(err)
			return
		}
	}, 3*time.Second, stop)
}

// untilInGoroutine: the same, from inside a goroutine's closure.
func (j *job) untilInGoroutine(ctx context.Context, lock *redislock.Lock) {
	go func() { // want `this goroutine renews the bsm/redislock lock with Lock.Refresh`
		wait.UntilWithContext(ctx, func(ctx context.Context) {
			if err := lock.Refresh(ctx, 10*time.Second, nil); err != nil {
				log.Print(err)
			}
		}, 3*time.Second)
	}()
}

// untilCancels: a failed refresh cancels the work.
func (j *job) untilCancels(ctx context.Context, lock *redislock.Lock, cancel context.CancelFunc) {
	go wait.Until(func() {
		if err := lock.Refresh(ctx, 10*time.Second, nil); err != nil {
			cancel()
		}
	}, 3*time.Second, ctx.Done())
}
