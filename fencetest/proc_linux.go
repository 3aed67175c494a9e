package fencetest

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

// workerSysProcAttr makes a worker die with the process that started it, so
// that no stopped worker outlives a failed test.
func workerSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// waitStopped waits until /proc says the process is stopped.
func waitStopped(pid int) error {
	path := "/proc/" + strconv.Itoa(pid) + "/stat"
	deadline := time.Now().Add(10 * time.Second)
	for {
		stat, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("checking that worker A stopped: %w", err)
		}
		// The state follows the command name, which is in parentheses.
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
			if s := stat[i+2]; s == 'T' || s == 't' {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("worker A (pid %d): %w after SIGSTOP", pid, errNotStopped)
		}
		time.Sleep(time.Millisecond)
	}
}
