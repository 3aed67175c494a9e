//go:build unix && !linux

package fencetest

import "syscall"

func workerSysProcAttr() *syscall.SysProcAttr { return nil }

// waitStopped cannot tell without /proc; SIGSTOP cannot be caught or
// ignored, so the process stops as soon as the kernel delivers it.
func waitStopped(pid int) error { return nil }
