// Package serverproc runs a database server as a child process of a test
// binary: its output goes to a log file, it dies with the test binary, and
// every failure carries the tail of that log so a server that will not start
// explains itself in the test output.
package serverproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Process is a server started by Start.
type Process struct {
	cmd     *exec.Cmd
	logPath string
	exited  chan struct{}
	waitErr error
}

// Start starts cmd with its stdout and stderr appended to logPath. The child
// receives killSignal if the test binary dies first (for example on a
// `go test -timeout` panic), so no server outlives the test that started it.
func Start(cmd *exec.Cmd, logPath string, killSignal syscall.Signal) (*Process, error) {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logFile.Close() // the child keeps its own descriptor
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = killSignal
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	p := &Process{cmd: cmd, logPath: logPath, exited: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// WaitReady calls ping until it succeeds. It gives up when the server exits or
// timeout passes, returning the last ping error and the log tail.
func (p *Process) WaitReady(timeout time.Duration, ping func(context.Context) error) error {
	deadline := time.Now().Add(timeout)
	var lastErr error
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		lastErr = ping(ctx)
		cancel()
		if lastErr == nil {
			return nil
		}
		select {
		case <-p.exited:
			return p.Errorf("server exited before accepting connections (%v); last connection error: %v", p.waitErr, lastErr)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return p.Errorf("server not ready after %v: %v", timeout, lastErr)
		}
	}
}

// Stop sends sig and waits up to timeout for the server to exit, then kills it.
func (p *Process) Stop(sig syscall.Signal, timeout time.Duration) error {
	select {
	case <-p.exited:
		return p.Errorf("server had already exited: %v", p.waitErr)
	default:
	}
	if err := p.cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-p.exited:
		return nil
	case <-time.After(timeout):
		_ = p.cmd.Process.Kill()
		<-p.exited
		return p.Errorf("server ignored %v for %v and was killed", sig, timeout)
	}
}

// Errorf formats an error followed by the tail of the server log.
func (p *Process) Errorf(format string, args ...any) error {
	return fmt.Errorf("%s\n--- tail of %s ---\n%s", fmt.Sprintf(format, args...), p.logPath, Tail(p.logPath, 30))
}

// Tail returns the last n lines of the file at path, or a note saying why it
// could not be read.
func Tail(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(cannot read log: %v)", err)
	}
	lines := strings.Split(string(bytes.TrimRight(data, "\n")), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// MkdirTemp makes a server's temporary directory. It is made under /tmp,
// not $TMPDIR: a unix socket path must stay under about 100 bytes, and a
// server running as another OS user must be able to reach the directory,
// which a private $TMPDIR (say under /root) would prevent.
func MkdirTemp(prefix string) (string, error) {
	return os.MkdirTemp("/tmp", prefix)
}

// RunLogged runs a setup command (initdb, mariadb-install-db) to completion
// with its output appended to logPath, and returns an error with the log tail
// if it fails.
func RunLogged(cmd *exec.Cmd, logPath string) error {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "$ %s\n", strings.Join(cmd.Args, " "))
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w\n--- tail of %s ---\n%s", cmd.Args[0], err, logPath, Tail(logPath, 30))
	}
	return nil
}
