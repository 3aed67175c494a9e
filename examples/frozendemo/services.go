package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// services are the demo's real lock services and store: an etcd server
// embedded in this process, a redis-server child process and a throwaway
// PostgreSQL cluster, all on loopback and temp directories.
type services struct {
	dir       string // temp root of everything below
	etcd      *embed.Etcd
	etcdURL   string
	redis     *exec.Cmd
	redisAddr string
	pgBin     string
	postgres  *exec.Cmd
	pgCred    *syscall.Credential
	dsn       string
}

// env is what a worker process needs to reach the services.
func (s *services) env() []string {
	return []string{envEtcd + "=" + s.etcdURL, envRedis + "=" + s.redisAddr, envDSN + "=" + s.dsn}
}

// startServices starts etcd, Redis and PostgreSQL and creates the schema.
func startServices(ctx context.Context) (_ *services, err error) {
	// Under /tmp, not $TMPDIR: PostgreSQL runs as another user and puts its
	// unix socket there, whose path must stay short.
	dir, err := os.MkdirTemp("/tmp", "frozendemo-")
	if err != nil {
		return nil, err
	}
	s := &services{dir: dir}
	defer func() {
		if err != nil {
			s.stop()
		}
	}()
	if err := s.startEtcd(); err != nil {
		return nil, fmt.Errorf("etcd: %w", err)
	}
	if err := s.startRedis(ctx); err != nil {
		return nil, fmt.Errorf("redis-server: %w", err)
	}
	if err := s.startPostgres(ctx); err != nil {
		return nil, fmt.Errorf("postgresql: %w", err)
	}
	if err := s.createSchema(ctx); err != nil {
		return nil, fmt.Errorf("creating the schema: %w", err)
	}
	return s, nil
}

// stop stops every service that started and removes the temp directory.
func (s *services) stop() {
	if s.etcd != nil {
		s.etcd.Close()
	}
	if s.redis != nil {
		_ = s.redis.Process.Signal(syscall.SIGTERM)
		_ = s.redis.Wait()
	}
	if s.postgres != nil {
		_ = s.postgres.Process.Signal(syscall.SIGINT) // fast shutdown
		_ = s.postgres.Wait()
	}
	os.RemoveAll(s.dir)
}

// startEtcd starts a single-member etcd on loopback. Its ticks are short so
// that a session can have a TTL of one second (etcd's minimum TTL is one
// and a half election timeouts, rounded up to whole seconds).
func (s *services) startEtcd() error {
	cfg := embed.NewConfig()
	cfg.Dir = filepath.Join(s.dir, "etcd")
	cfg.TickMs = 10
	cfg.ElectionMs = 100
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
	client, peer, err := freePorts(2)
	if err != nil {
		return err
	}
	cu := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(client))}
	pu := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(peer))}
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{cu}, []url.URL{cu}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{pu}, []url.URL{pu}
	cfg.InitialCluster = cfg.Name + "=" + pu.String()
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return err
	}
	s.etcd = e
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		return err
	case <-time.After(time.Minute):
		return errors.New("not ready after a minute")
	}
	s.etcdURL = cu.String()
	return nil
}

// startRedis starts Debian's redis-server on a free loopback port, with no
// persistence.
func (s *services) startRedis(ctx context.Context) error {
	path, err := exec.LookPath("redis-server")
	if err != nil {
		return errors.New("redis-server not found: install it (apt-get install redis-server)")
	}
	port, _, err := freePorts(1)
	if err != nil {
		return err
	}
	logPath := filepath.Join(s.dir, "redis.log")
	cmd := exec.Command(path, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", s.dir, "--logfile", logPath)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return err
	}
	s.redis = cmd
	s.redisAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	client := redis.NewClient(&redis.Options{Addr: s.redisAddr})
	defer client.Close()
	return waitReady(ctx, logPath, func(ctx context.Context) error {
		// Dial first: go-redis logs every refused connection.
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", s.redisAddr)
		if err != nil {
			return err
		}
		conn.Close()
		return client.Ping(ctx).Err()
	})
}

// startPostgres initialises a cluster with the installed initdb and starts
// the server, listening on a unix socket only. initdb refuses to run as
// root, so as root the cluster runs as the postgres user.
func (s *services) startPostgres(ctx context.Context) error {
	bin, err := pgBinDir()
	if err != nil {
		return err
	}
	if s.pgCred, err = pgCredential(); err != nil {
		return err
	}
	if s.pgCred != nil {
		if err := os.Chown(s.dir, int(s.pgCred.Uid), int(s.pgCred.Gid)); err != nil {
			return err
		}
	}
	s.pgBin = bin
	logPath := filepath.Join(s.dir, "postgres.log")
	if out, err := s.pgCommand("initdb", "-D", s.pgData(), "-U", "postgres", "--auth=trust", "--no-sync",
		"--encoding=UTF8", "--locale=C").CombinedOutput(); err != nil {
		return fmt.Errorf("initdb: %v\n%s", err, out)
	}
	// postgres runs as a child, not daemonized by pg_ctl, so that it dies
	// with this process even when a test binary is killed.
	postgres := s.pgCommand("postgres", "-D", s.pgData(), "-k", s.dir, "-c", "listen_addresses=",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=300")
	logFile, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	postgres.Stdout, postgres.Stderr = logFile, logFile
	postgres.SysProcAttr.Pdeathsig = syscall.SIGQUIT
	if err := postgres.Start(); err != nil {
		return err
	}
	s.postgres = postgres
	s.dsn = fmt.Sprintf("host=%s port=5432 user=postgres dbname=postgres sslmode=disable", s.dir)
	return waitReady(ctx, logPath, func(ctx context.Context) error {
		conn, err := pgx.Connect(ctx, s.dsn)
		if err != nil {
			return err
		}
		return conn.Close(ctx)
	})
}

func (s *services) pgData() string { return filepath.Join(s.dir, "pgdata") }

func (s *services) pgCommand(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(s.pgBin, name), args...)
	cmd.Dir = s.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.pgCred}
	return cmd
}

// createSchema applies the schema and fencegen's token sources.
func (s *services) createSchema(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	for _, f := range []string{"schema.sql", "store/fence_tokens.sql", "store/fence_leases.sql"} {
		sql, err := schemaFiles.ReadFile(f)
		if err != nil {
			return err
		}
		if _, err := conn.Exec(ctx, string(sql)); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
	}
	return nil
}

// pgBinDir finds the directory of initdb and postgres: $PGBINDIR, else
// /usr/local/bin, else $PATH.
func pgBinDir() (string, error) {
	candidates := []string{os.Getenv("PGBINDIR"), "/usr/local/bin"}
	if p, err := exec.LookPath("initdb"); err == nil {
		candidates = append(candidates, filepath.Dir(p))
	}
	for _, dir := range candidates {
		if dir == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "postgres")); err == nil {
			return dir, nil
		}
	}
	return "", errors.New("initdb and postgres not found in $PGBINDIR, /usr/local/bin or $PATH: install PostgreSQL")
}

// pgCredential returns the postgres user's credentials when running as
// root, and nil otherwise.
func pgCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, and initdb refuses root: create a postgres user (useradd --system postgres): %w", err)
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

// freePorts returns n loopback ports that were free a moment ago.
func freePorts(n int) (a, b int, err error) {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, 0, err
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	ports = append(ports, 0)
	return ports[0], ports[1], nil
}

// waitReady pings until the server answers, for up to a minute.
func waitReady(ctx context.Context, logPath string, ping func(context.Context) error) error {
	deadline := time.Now().Add(time.Minute)
	for {
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		err := ping(pctx)
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("not ready: %v\n%s", err, tail(logPath))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// tail returns the end of a server log for an error message.
func tail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return "--- " + path + " ---\n" + strings.Join(lines, "\n")
}
