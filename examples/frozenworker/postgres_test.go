package main

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// pgBinDirs are where the PostgreSQL server binaries are looked for, after
// $PGBINDIR: the machine's /usr/local/bin, then $PATH.
var pgBinDirs = []string{"/usr/local/bin"}

// startPostgres starts a throwaway PostgreSQL cluster in a temp dir,
// listening only on a unix socket there, and returns a pool connected to
// it. The cluster is stopped and removed when the test ends. initdb refuses
// to run as root, so as root the cluster runs as the postgres user, which
// must exist (CI creates it).
func startPostgres(t *testing.T) *sql.DB {
	t.Helper()
	bin := pgBinDir(t)
	dir, err := os.MkdirTemp("", "frozenworker-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	cred := serverCredential(t, dir)
	data := filepath.Join(dir, "data")
	runAs(t, cred, filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "--no-sync")
	runAs(t, cred, filepath.Join(bin, "pg_ctl"), "start", "-w", "-D", data, "-l", filepath.Join(dir, "server.log"),
		"-o", fmt.Sprintf("-k %s -c listen_addresses='' -F", dir))
	t.Cleanup(func() {
		runAs(t, cred, filepath.Join(bin, "pg_ctl"), "stop", "-w", "-m", "fast", "-D", data)
	})
	db, err := sql.Open("pgx", fmt.Sprintf("host=%s user=postgres dbname=postgres sslmode=disable", dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// pgBinDir returns the directory holding initdb and pg_ctl.
func pgBinDir(t *testing.T) string {
	dirs := append([]string{os.Getenv("PGBINDIR")}, pgBinDirs...)
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
			return dir
		}
	}
	if path, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(path)
	}
	t.Fatalf("no PostgreSQL server binaries: set PGBINDIR to the directory holding initdb and pg_ctl")
	return ""
}

// serverCredential returns the credential to run the server with: nil if
// the test does not run as root, else the postgres user's, which is given
// dir.
func serverCredential(t *testing.T, dir string) *syscall.Credential {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		t.Fatalf("running as root, and initdb refuses root: create the postgres user (useradd --system postgres): %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		t.Fatal(err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
}

// runAs runs a server command as cred (nil: as this process) and fails the
// test with its output if it fails.
func runAs(t *testing.T, cred *syscall.Credential, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", filepath.Base(name), args, err, out)
	}
}
