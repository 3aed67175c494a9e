// Package pgtest starts throwaway PostgreSQL clusters for tests and
// benchmarks.
//
// A cluster lives in a fresh directory under /tmp, listens only on a unix
// socket in that directory (so parallel test binaries never fight over a
// port), runs with fsync off, and is removed when the test ends. initdb
// refuses to run as root, so when the test runs as root the cluster runs as
// the postgres OS user, which is created if it does not exist.
//
// The binaries are taken from $PGTEST_BINDIR, else /usr/local/bin, else the
// directory of the initdb found on $PATH.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/internal/serverproc"
)

const (
	serviceUser  = "postgres"
	port         = 5432 // only names the socket file; nothing listens on TCP
	startTimeout = 60 * time.Second
	stopTimeout  = 30 * time.Second
)

// Server is a running cluster started by Start or New.
type Server struct {
	dir     string // temp root: data/, the socket and the logs
	proc    *serverproc.Process
	nextDB  atomic.Int64
	stopped atomic.Bool
}

// New starts a cluster for tb and stops and removes it in tb.Cleanup. It
// fails tb, with the tail of the server log, if the cluster does not start.
func New(tb testing.TB) *Server {
	tb.Helper()
	s, err := Start()
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Stop(); err != nil {
			tb.Errorf("pgtest: %v", err)
		}
	})
	return s
}

// Start starts a cluster; the caller must call Stop. It suits TestMain, where
// one cluster serves every test of a package through NewDatabase.
func Start() (*Server, error) {
	binDir, err := findBinDir()
	if err != nil {
		return nil, err
	}
	cred, err := serviceCredential()
	if err != nil {
		return nil, err
	}
	dir, err := serverproc.MkdirTemp("pgtest-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir}
	if err := s.start(binDir, cred); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// start initialises the data directory and starts the postmaster.
func (s *Server) start(binDir string, cred *syscall.Credential) error {
	if cred != nil {
		if err := os.Chown(s.dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return err
		}
	}
	initdb := s.command(cred, filepath.Join(binDir, "initdb"),
		"-D", s.dataDir(), "-U", "postgres", "--auth=trust", "--no-sync",
		"--encoding=UTF8", "--locale=C")
	if err := serverproc.RunLogged(initdb, s.logPath()); err != nil {
		return err
	}
	postgres := s.command(cred, filepath.Join(binDir, "postgres"),
		"-D", s.dataDir(), "-k", s.dir, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=200")
	proc, err := serverproc.Start(postgres, s.logPath(), syscall.SIGQUIT)
	if err != nil {
		return err
	}
	s.proc = proc
	if err := proc.WaitReady(startTimeout, s.ping); err != nil {
		_ = proc.Stop(syscall.SIGQUIT, stopTimeout)
		return err
	}
	return nil
}

// command builds a command that runs in the cluster directory, as cred's user
// when cred is not nil.
func (s *Server) command(cred *syscall.Credential, path string, args ...string) *exec.Cmd {
	cmd := exec.Command(path, args...)
	cmd.Dir = s.dir
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	return cmd
}

func (s *Server) ping(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, s.DSN("postgres"))
	if err != nil {
		return err
	}
	return conn.Close(ctx)
}

func (s *Server) dataDir() string { return filepath.Join(s.dir, "data") }
func (s *Server) logPath() string { return filepath.Join(s.dir, "server.log") }

// DSN returns a connection string for database on this cluster, usable with
// pgx and with database/sql through github.com/jackc/pgx/v5/stdlib.
func (s *Server) DSN(database string) string {
	return fmt.Sprintf("host=%s port=%d user=postgres dbname=%s sslmode=disable", s.dir, port, database)
}

// NewDatabase creates an empty database for tb and returns its DSN; tests
// sharing one cluster stay isolated this way at a fraction of the cost of a
// cluster each. It fails tb, with the server log tail, on error.
func (s *Server) NewDatabase(tb testing.TB) string {
	tb.Helper()
	name, err := s.CreateDatabase(context.Background())
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	return s.DSN(name)
}

// CreateDatabase creates an empty database with a fresh name and returns the
// name.
func (s *Server) CreateDatabase(ctx context.Context) (string, error) {
	name := fmt.Sprintf("test_%d", s.nextDB.Add(1))
	conn, err := pgx.Connect(ctx, s.DSN("postgres"))
	if err != nil {
		return "", s.proc.Errorf("connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", s.proc.Errorf("create database %s: %v", name, err)
	}
	return name, nil
}

// Stop shuts the cluster down (fast shutdown: sessions are ended) and removes
// its directory. Calling it again does nothing.
func (s *Server) Stop() error {
	if !s.stopped.CompareAndSwap(false, true) {
		return nil
	}
	stopErr := s.proc.Stop(syscall.SIGINT, stopTimeout)
	return errors.Join(stopErr, os.RemoveAll(s.dir))
}

// findBinDir returns the directory holding initdb and postgres.
func findBinDir() (string, error) {
	candidates := []string{os.Getenv("PGTEST_BINDIR"), "/usr/local/bin"}
	if p, err := exec.LookPath("initdb"); err == nil {
		candidates = append(candidates, filepath.Dir(p))
	}
	for _, dir := range candidates {
		if dir == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
			return dir, nil
		}
	}
	return "", errors.New("initdb not found in $PGTEST_BINDIR, /usr/local/bin or $PATH: install PostgreSQL 15 or set PGTEST_BINDIR")
}

// serviceCredential returns the credentials of the postgres OS user when the
// test runs as root, creating the user if needed, and nil otherwise (the
// server then runs as the current user).
func serviceCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup(serviceUser)
	if err != nil {
		u, err = createServiceUser()
		if err != nil {
			return nil, err
		}
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, err
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// createServiceUser adds the postgres system user. Another test binary may
// add it at the same moment, so a failed useradd is fine if the user now
// exists.
func createServiceUser() (*user.User, error) {
	out, addErr := exec.Command("useradd", "--system", "--user-group", "--no-create-home",
		"--shell", "/usr/sbin/nologin", serviceUser).CombinedOutput()
	u, err := user.Lookup(serviceUser)
	if err != nil {
		return nil, fmt.Errorf("initdb refuses root and the %s user is missing; useradd failed: %v: %s", serviceUser, addErr, out)
	}
	return u, nil
}
