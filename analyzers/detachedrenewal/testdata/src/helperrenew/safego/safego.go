// Package safego starts goroutines with a panic handler, as services do:
// the func is kept in a struct field and called by a goroutine that a
// method of that struct starts, and restarted after a panic.
package safego

import (
	"log"
	"time"
)

// An Execution is one func run under a panic handler.
type Execution struct {
	f       func()
	restart time.Duration
}

// RunWithRestart runs f in a new goroutine and restarts it after a panic.
func RunWithRestart(f func()) *Execution {
	exec := Execution{f: f, restart: 2 * time.Second}
	return exec.run()
}

// Run runs f in a new goroutine.
func Run(f func()) *Execution {
	exec := &Execution{}
	exec.f = f
	return exec.run()
}

func (exec *Execution) run() *Execution {
	go func() {
		defer func() {
			if r := recover(); r != nil {
				log.Printf("recovered: %v", r)
				if exec.restart > 0 {
					time.Sleep(exec.restart)
					exec.run()
				}
			}
		}()
		exec.f()
	}()
	return exec
}

// Go runs f in a new goroutine, logging a panic; it hands f on to Guarded.
func Go(f func()) {
	go Guarded(f)
}

// Named runs f in a new goroutine through Go.
func Named(name string, f func()) {
	log.Printf("starting %s", name)
	Go(f)
}

// Guarded runs f in the caller's goroutine and logs a panic.
func Guarded(f func()) {
	defer func() {
		if r := recover(); r != nil {
			log.Printf("recovered: %v", r)
		}
	}()
	f()
}

// Inline keeps f in the same field as Run but calls it in the caller's
// goroutine.
func Inline(f func()) {
	exec := Execution{f: f}
	exec.call()
}

func (exec *Execution) call() { exec.f() }

// RunAndWait runs f in a new goroutine and waits for it to return: the
// caller's flow does not go on beside f.
func RunAndWait(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// GoLogged runs f in a new goroutine through Guarded, logging its start.
func GoLogged(f func()) {
	go func() {
		log.Print("starting")
		Guarded(f)
	}()
}
