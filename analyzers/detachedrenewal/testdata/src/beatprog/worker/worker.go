// Package worker runs jobs in goroutines of their own: Start keeps the job
// in a field and starts a method that calls it.
package worker

import "log"

// A Worker runs one job.
type Worker struct {
	name string
	job  func()
}

// Start runs job in a new goroutine that logs a panic.
func Start(name string, job func()) *Worker {
	w := &Worker{name: name, job: job}
	go w.loop()
	return w
}

func (w *Worker) loop() {
	defer func() {
		if r := recover(); r != nil {
			log.Printf("%s: %v", w.name, r)
		}
	}()
	w.job()
}
