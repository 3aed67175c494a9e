package unfencedwrite_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzers"
	"github.com/fencelint/fencelint/analyzers/internal/fencetest"
	"github.com/fencelint/fencelint/analyzers/internal/programtest"
	"github.com/fencelint/fencelint/analyzers/lease"
	"github.com/fencelint/fencelint/analyzers/unfencedwrite"
)

func Test(t *testing.T) {
	fencetest.Run(t, unfencedwrite.Analyzer,
		"sqladvisory", "billing", "etcdlock", "redislocks", "consullock", "zklock",
		"k8sleader", "cbconfig/...", "cloudstores", "crosspkg", "pgxworker", "gocronjobs", "gocronshared", "gocronv1/...", "raftleader", "usewithlock",
		"ifacevet/worker", "errwraps", "k8sworkers", "k8sobjects/...", "falsepositives", "sqlforms", "sqlbuilders", "goroutines", "oncestart/...", "fencegen/...", "gormstore", "bunstore", "boilerstore/...", "goqustore", "roomlock", "gccollector",
		"mongostore", "pipelines", "lockobjects", "messages/...", "optimistic", "transitions", "releasefuncs/...", "casfence/...", "ownlease", "findorcreate", "upsertdefs/...", "freshkeys", "stmthelpers", "sqlformats/...", "redigostore", "gozeromodel", "goctlmodel", "ownobjectvet", "redismarkers", "sortedclaims", "stmtlists/...", "gozeroredis", "multilocks", "passedcallbacks/...", "lockkeyhelpers", "mayheld/...", "constargs", "etcdtxnlock", "etcdops", "boundeddecrements", "handoffs", "awaitedlocks", "lockpkg/...", "handlerfields/...", "mongounique", "xactlayers/...", "lockedcopies/...", "retriedacquire", "retriedlocks", "blindswaps", "repeatedcalls/...", "reexports/...", "kooperctl", "leaseonly", "chanwork", "txnlocks", "pgxmigrate", "gamestate", "rueidislocks", "caridlocks", "mixedlockers/...", "cachefills/...", "leaserows/...", "tombstones", "narrowclients", "failover", "rowclaims", "etcdqueuelock", "etcdbarrier")
}

// TestEntClient: the fixture's ent client is the conformance case's, one
// source compiled here against the ent stubs and there against real ent.
func TestEntClient(t *testing.T) {
	fencetest.RunWithPackages(t, unfencedwrite.Analyzer, map[string]string{
		"github.com/fencelint/fencelint/testdata/conformance/entstore/ent": "../../testdata/conformance/entstore/ent",
	}, "entstore")
}

func TestSuggestedFixes(t *testing.T) {
	fencetest.RunWithSuggestedFixes(t, unfencedwrite.Analyzer, "fixes")
}

// TestProgram runs the check as a standalone run does, with every
// implementation of the application's interfaces known.
func TestProgram(t *testing.T) {
	programtest.Run(t, unfencedwrite.Analyzer, "ifaceapp/...", "daomanager/...", "statebackends/...", "zkrecipe/...", "lockcallers/...", "ownobjects/...", "revapp/...", "aliaslocks/...", "syncdaemon/...", "lockedrepo/...", "nestedifaces/...", "handedcallees/...", "goworkers/...", "ctxtx/...", "embedcoords/...", "workerset/...", "periodicworkers/...", "deepifaces/...")
}

// TestLocalSQLite: a program whose only SQL driver is SQLite's writes its
// own node's file; sharedsql, the same program with PostgreSQL's driver
// beside SQLite's, is reported. Each is a program of its own.
func TestLocalSQLite(t *testing.T) {
	programtest.Run(t, unfencedwrite.Analyzer, "localsqlite/...")
	programtest.Run(t, unfencedwrite.Analyzer, "sharedsql/...")
}

// TestTestWritesFlag: writes in _test.go files are fixtures and stay
// silent by default (package falsepositives above); the lease analyzer's
// -testwrites flag reports them like any other.
func TestTestWritesFlag(t *testing.T) {
	if err := lease.Analyzer.Flags.Set("testwrites", "true"); err != nil {
		t.Fatal(err)
	}
	defer lease.Analyzer.Flags.Set("testwrites", "false")
	fencetest.Run(t, unfencedwrite.Analyzer, "testwrites")
}

// TestEmbeddedSchema runs the fixtures that embed SQL migrations, loaded
// as the standalone driver loads them (with their embedded files).
func TestEmbeddedSchema(t *testing.T) {
	fencetest.RunWithEmbeds(t, unfencedwrite.Analyzer, "schemakeys/...", "helpertables/...", "leasekeyinserts/...", "gormtables/...", "partialkeys")
}

// TestScriptLocks: Redis locks claimed by SET NX in Lua scripts, some kept
// in files another package embeds (loaded with them, as standalone does).
func TestScriptLocks(t *testing.T) {
	fencetest.RunWithEmbeds(t, unfencedwrite.Analyzer, "scriptlock/...")
}

// TestEmbeddedSchemaProgram: the migrations sit in a package only main
// imports; a standalone run reads every package's schema.
func TestEmbeddedSchemaProgram(t *testing.T) {
	programtest.RunWithEmbeds(t, unfencedwrite.Analyzer, "schemaprog/...")
}

// TestLeaseKeyInserts: inserts under unique text keys built from the
// lock's own key, through helpers and an interface (leasekeys.go).
func TestLeaseKeyInserts(t *testing.T) {
	programtest.RunWithEmbeds(t, unfencedwrite.Analyzer, "leasekeyinserts/...")
}

// TestSummaryPasses checks what SummarizeProgram says of the passes it ran
// (fencelint -v prints it): deepifaces' escalation writes three services
// deep, which only the third pass reaches, so that pass still changed the
// summary when the limit stopped it; ifaceapp's one interface settles in
// the second; sqladvisory calls through no interface and needs one.
func TestSummaryPasses(t *testing.T) {
	root := fencetest.Tree(t)
	for _, tc := range []struct {
		pattern string
		want    analyzers.Summary
	}{
		{"deepifaces/...", analyzers.Summary{Passes: 3, Settled: false}},
		{"ifaceapp/...", analyzers.Summary{Passes: 2, Settled: true}},
		{"sqladvisory", analyzers.Summary{Passes: 1, Settled: true}},
	} {
		_, got, err := analyzers.SummarizeProgram(fencetest.Load(t, root, true, tc.pattern), nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.pattern, err)
		}
		if got.Passes != tc.want.Passes || got.Settled != tc.want.Settled {
			t.Errorf("%s: %d passes, settled %v; want %d, %v", tc.pattern, got.Passes, got.Settled, tc.want.Passes, tc.want.Settled)
		}
	}
}
