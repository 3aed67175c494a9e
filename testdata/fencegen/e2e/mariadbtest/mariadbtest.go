// Package mariadbtest starts throwaway MariaDB servers for tests and
// benchmarks.
//
// A server gets a fresh data directory made by mariadb-install-db, listens
// only on a unix socket in its temporary directory (no TCP port to collide
// on), and is stopped and removed when the test ends. As root it runs with
// --user=root, so no mysql OS user is needed.
//
// Debian packages: mariadb-server-core (mariadbd, mariadb-install-db) and
// mariadb-client-core (my_print_defaults, which mariadb-install-db calls).
package mariadbtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/internal/serverproc"
)

const (
	startTimeout = 60 * time.Second
	stopTimeout  = 30 * time.Second
)

// Server is a running server started by Start or New.
type Server struct {
	dir     string // temp root: data/, the socket and the log
	proc    *serverproc.Process
	nextDB  atomic.Int64
	stopped atomic.Bool
}

// New starts a server for tb and stops and removes it in tb.Cleanup. It fails
// tb, with the tail of the server log, if the server does not start.
func New(tb testing.TB) *Server {
	tb.Helper()
	s, err := Start()
	if err != nil {
		tb.Fatalf("mariadbtest: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Stop(); err != nil {
			tb.Errorf("mariadbtest: %v", err)
		}
	})
	return s
}

// Start starts a server; the caller must call Stop. It suits TestMain, where
// one server serves every test of a package through NewDatabase.
func Start() (*Server, error) {
	for _, bin := range []string{"mariadb-install-db", "mariadbd", "my_print_defaults"} {
		if _, err := exec.LookPath(bin); err != nil {
			return nil, fmt.Errorf("%s not found: install the Debian packages mariadb-server-core and mariadb-client-core", bin)
		}
	}
	dir, err := serverproc.MkdirTemp("mariadbtest-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir}
	if err := s.start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// start initialises the data directory and starts mariadbd.
func (s *Server) start() error {
	// Each server gets its own tmpdir: bootstraps running at once (go test
	// runs packages in parallel) collide on their temporary tables in a
	// shared /tmp ("Unknown table 'mysql.tmp_user_sys'").
	install := exec.Command("mariadb-install-db", "--no-defaults",
		"--datadir="+s.dataDir(), "--tmpdir="+s.dir, "--auth-root-authentication-method=normal",
		"--skip-test-db", "--skip-name-resolve")
	install.Args = append(install.Args, userFlag()...)
	install.Dir = s.dir
	if err := serverproc.RunLogged(install, s.logPath()); err != nil {
		return err
	}
	mariadbd := exec.Command("mariadbd", "--no-defaults",
		"--datadir="+s.dataDir(), "--tmpdir="+s.dir, "--socket="+s.socketPath(), "--skip-networking",
		"--pid-file="+filepath.Join(s.dir, "mariadbd.pid"),
		"--skip-name-resolve", "--innodb-buffer-pool-size=64M",
		"--innodb-flush-log-at-trx-commit=0", "--max-connections=300",
		"--character-set-server=utf8mb4")
	mariadbd.Args = append(mariadbd.Args, userFlag()...)
	mariadbd.Dir = s.dir
	proc, err := serverproc.Start(mariadbd, s.logPath(), syscall.SIGKILL)
	if err != nil {
		return err
	}
	s.proc = proc
	if err := proc.WaitReady(startTimeout, s.ping); err != nil {
		_ = proc.Stop(syscall.SIGKILL, stopTimeout)
		return err
	}
	return nil
}

// userFlag lets mariadbd run as root when the test does, instead of
// switching to a mysql user that may not exist.
func userFlag() []string {
	if os.Geteuid() == 0 {
		return []string{"--user=root"}
	}
	return nil
}

func (s *Server) ping(ctx context.Context) error {
	db, err := sql.Open("mysql", s.DSN(""))
	if err != nil {
		return err
	}
	defer db.Close()
	return db.PingContext(ctx)
}

func (s *Server) dataDir() string    { return filepath.Join(s.dir, "data") }
func (s *Server) socketPath() string { return filepath.Join(s.dir, "mariadbd.sock") }
func (s *Server) logPath() string    { return filepath.Join(s.dir, "server.log") }

// DSN returns a go-sql-driver/mysql DSN for database (empty for none). It sets
// clientFoundRows=true so RowsAffected counts the rows an UPDATE matched, not
// only those whose values changed: a fenced write that stores identical
// values must still count as applied.
func (s *Server) DSN(database string) string {
	cfg := mysql.NewConfig()
	cfg.User = "root"
	cfg.Net = "unix"
	cfg.Addr = s.socketPath()
	cfg.DBName = database
	cfg.ClientFoundRows = true
	cfg.ParseTime = true
	cfg.MultiStatements = true
	return cfg.FormatDSN()
}

// NewDatabase creates an empty database for tb and returns its DSN; tests
// sharing one server stay isolated this way. It fails tb, with the server
// log tail, on error.
func (s *Server) NewDatabase(tb testing.TB) string {
	tb.Helper()
	name, err := s.CreateDatabase(context.Background())
	if err != nil {
		tb.Fatalf("mariadbtest: %v", err)
	}
	return s.DSN(name)
}

// CreateDatabase creates an empty database with a fresh name and returns the
// name.
func (s *Server) CreateDatabase(ctx context.Context) (string, error) {
	name := fmt.Sprintf("test_%d", s.nextDB.Add(1))
	db, err := sql.Open("mysql", s.DSN(""))
	if err != nil {
		return "", err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", s.proc.Errorf("create database %s: %v", name, err)
	}
	return name, nil
}

// Stop shuts the server down and removes its directory. Calling it again
// does nothing.
func (s *Server) Stop() error {
	if !s.stopped.CompareAndSwap(false, true) {
		return nil
	}
	stopErr := s.proc.Stop(syscall.SIGTERM, stopTimeout)
	return errors.Join(stopErr, os.RemoveAll(s.dir))
}
