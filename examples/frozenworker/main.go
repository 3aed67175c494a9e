package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"slices"
	"time"
)

// config is what the command line says.
type config struct {
	driver   string
	dsn      string
	mode     string
	account  int64
	worker   string
	every    time.Duration
	leaseTTL time.Duration
	init     bool
}

// modes are the values -mode accepts.
var modes = []string{"advisory", "lease"}

func main() {
	log.SetFlags(0)
	log.SetPrefix("frozenworker: ")
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg); err != nil && !errors.Is(err, context.Canceled) {
		log.Fatal(err)
	}
}

// parseFlags reads the command line into a config and checks it.
func parseFlags(args []string) (config, error) {
	host, _ := os.Hostname()
	cfg := config{}
	fs := flag.NewFlagSet("frozenworker", flag.ContinueOnError)
	fs.StringVar(&cfg.driver, "driver", "pgx", "database/sql driver name (the driver must be linked in)")
	fs.StringVar(&cfg.dsn, "dsn", "", "PostgreSQL data source name")
	fs.StringVar(&cfg.mode, "mode", "advisory", "advisory (unfenced, the bug) or lease (fenced, the fix)")
	fs.Int64Var(&cfg.account, "account", 42, "account whose balance the worker maintains")
	fs.StringVar(&cfg.worker, "worker", fmt.Sprintf("%s/%d", host, os.Getpid()), "this worker's name, stored with each write")
	fs.DurationVar(&cfg.every, "every", 5*time.Second, "how often to recompute the balance")
	fs.DurationVar(&cfg.leaseTTL, "lease-ttl", 10*time.Second, "how long a lease row is granted for (-mode=lease)")
	fs.BoolVar(&cfg.init, "init", false, "create the tables first")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if !slices.Contains(modes, cfg.mode) {
		return config{}, fmt.Errorf("-mode=%s: want one of %v", cfg.mode, modes)
	}
	if cfg.dsn == "" {
		return config{}, errors.New("-dsn is required: the PostgreSQL database to work on")
	}
	return cfg, nil
}

// run opens the database and recomputes the balance every cfg.every until
// ctx is done.
func run(ctx context.Context, cfg config) error {
	if !slices.Contains(sql.Drivers(), cfg.driver) {
		return fmt.Errorf("no database/sql driver %q is linked in: add a file with a blank import of one "+
			"(for pgx: import _ \"github.com/jackc/pgx/v5/stdlib\")", cfg.driver)
	}
	db, err := sql.Open(cfg.driver, cfg.dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	if cfg.init {
		if _, err := db.ExecContext(ctx, schema); err != nil {
			return fmt.Errorf("creating the tables: %w", err)
		}
	}
	step := workerFor(cfg, db)
	tick := time.NewTicker(cfg.every)
	defer tick.Stop()
	for {
		if err := step(ctx, cfg.account); err != nil && !errors.Is(err, errBusy) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// workerFor returns the step function of the worker cfg.mode selects.
func workerFor(cfg config, db *sql.DB) func(context.Context, int64) error {
	if cfg.mode == "lease" {
		return (&leaseWorker{db: db, name: cfg.worker, ttl: cfg.leaseTTL}).step
	}
	return (&advisoryWorker{db: db, name: cfg.worker}).step
}

// errBusy says another worker holds the lock; the step is skipped.
var errBusy = errors.New("another worker holds the lock")

// schema creates the tables both workers use. The ledger is the input; the
// balances row is the output both workers overwrite; leases is the lease
// table of -mode=lease.
const schema = `
CREATE TABLE IF NOT EXISTS ledger (
	account bigint NOT NULL,
	amount  bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS balances (
	id          bigint PRIMARY KEY,
	amount      bigint NOT NULL DEFAULT 0,
	computed_by text   NOT NULL DEFAULT '',
	fence       bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS leases (
	id         bigint      PRIMARY KEY,
	holder     text        NOT NULL,
	fence      bigint      NOT NULL,
	expires_at timestamptz NOT NULL
);
`

// sumLedger returns the balance of account: the sum of its ledger entries.
func sumLedger(ctx context.Context, db *sql.DB, account int64) (int64, error) {
	var balance int64
	err := db.QueryRowContext(ctx, "SELECT coalesce(sum(amount), 0) FROM ledger WHERE account = $1", account).Scan(&balance)
	return balance, err
}
