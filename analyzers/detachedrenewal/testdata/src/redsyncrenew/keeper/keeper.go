// Package keeper keeps redsync mutexes extended for the packages that lock
// them: one loop tells nobody when an extension fails, the other calls back.
package keeper

import (
	"log"
	"time"

	"github.com/go-redsync/redsync/v4"
)

// KeepExtending extends m every second, logging failures, until the
// process ends.
func KeepExtending(m *redsync.Mutex) { // want KeepExtending:`detached redsync renewal loop: Mutex.Extend at keeper.go:16`
	for range time.Tick(time.Second) {
		if ok, err := m.Extend(); !ok || err != nil {
			log.Printf("extend %s: ok=%v err=%v", m.Name(), ok, err)
		}
	}
}

// KeepExtendingOr extends m every second and calls lost when that fails.
func KeepExtendingOr(m *redsync.Mutex, lost func(error)) {
	for range time.Tick(time.Second) {
		if ok, err := m.Extend(); !ok || err != nil {
			lost(err)
			return
		}
	}
}
