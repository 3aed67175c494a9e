package lease

import (
	"cmp"
	"slices"
	"strings"
)

// This file is the one place that knows the lock libraries' and stores' APIs.
// Every fencelint analyzer sees them only through the roles below. The facts
// behind each row (signatures, what is monotonic, what each call does on the
// wire) are in the project's lock-API notes; the conformance module under
// testdata/conformance compiles against the real modules and checks that every
// row still names a real symbol.

// A Role is what a symbol means for a lease. A symbol may have several.
type Role uint32

const (
	RoleAcquire       Role = 1 << iota // blocks until the lease is held
	RoleTryAcquire                     // one attempt; success is reported by error or bool
	RoleRelease                        // gives the lease up
	RoleRenew                          // extends the lease once, by hand
	RoleAutoRenew                      // the library renews in its own goroutine
	RoleCheck                          // tells whether the lease is (still) held
	RoleLost                           // a signal that fires when the lease is lost
	RoleToken                          // a monotonic value issued with the lease: a fencing token
	RoleNotToken                       // a value people mistake for a token
	RoleWrite                          // writes to a shared store; fenced only if its FenceRule says so
	RoleFenced                         // a write the store conditions on the lease itself
	RoleCallback                       // a func field whose function runs while the lease is held
	RoleElect                          // configures a scheduler whose jobs run under a lease (gocron)
	RoleGrant                          // grants a lease that is not a lock by itself (etcd Grant, NewSession)
	RoleCounter                        // draws from a monotonic counter (Redis INCR): a token only if drawn with the grant
	RoleLocker                         // returns a sync.Locker whose Lock and Unlock take and give up the lease
	RoleOnLost                         // a func field whose function the library runs once the lease is lost
	RoleOnLease                        // an option that runs a session on a lease granted beforehand (whoever keeps that lease alive holds its lost signal)
	RoleEventCallback                  // an option that hands every session event, the lost signal among them, to a callback
	RoleObserve                        // returns a channel of the current leader's value (etcd Election.Observe): kept, a cached leader ID
	RoleMessage                        // sends a message or appends an event (Redis PUBLISH, XADD): overwrites nothing, so not a write a fence protects
	RoleFreshID                        // returns an identifier no other caller can know (a random UUID): a key built from it names a new object (freshkey.go)
	RoleEntropy                        // a source of random bytes no other process repeats (crypto/rand.Reader), for a Seeded generator
	RoleRefresh                        // sets a Redis key's value or TTL again (SET, EXPIRE): a SET NX key every caller refreshes, won or not, is a marker, not a lock (redismarkers.go)
	RoleHandler                        // an interface field of a library's config whose value's methods run while the lease the config's API.With field takes is held, or a call registering a handler (its Arg) that runs so, Note naming what runs it (handlerfields.go)
	RoleEndsSession                    // closes a connection that is a database session of its own: the session's advisory locks end with it (roles.go's wrapperRole)
)

// Has reports whether r includes every role in want.
func (r Role) Has(want Role) bool { return r&want == want }

// A FenceRule says how to tell whether a Write carries a fence the store checks.
type FenceRule uint8

const (
	NeverFenced         FenceRule = iota // the call has no way to carry a condition
	SQLQuery                             // SQL text in the argument at API.Arg; fenced if its predicate compares a token
	SQLPrepared                          // a prepared statement: the SQL comes from the Prepare call that made the receiver
	EtcdTxn                              // fenced if the Txn chain has an If with an ownership compare
	S3Conditional                        // fenced if the input struct sets IfMatch / IfNoneMatch
	GCSConditional                       // fenced if the object handle went through If(Conditions{...})
	ConsulTxn                            // fenced if the ops hold a check-session, check-index or cas op, or create-if-absent (consultxn.go)
	ZKVersion                            // fenced if the version argument at API.Arg is not -1
	ZKMulti                              // fenced if the ops hold a *zk.CheckVersionRequest
	ZKCreate                             // create-only unless the flags at API.Arg are sequential: ZooKeeper refuses an existing node
	RedisScript                          // fenced if the Lua script at API.Arg compares a stored fence
	RedisWatched                         // fenced: inside WATCH/MULTI the EXEC aborts on conflict
	RedisCommand                         // the command is named by the call's first string argument (redigo's Do): a write only if it names one
	EtcdOp                               // the call runs the etcd Op at API.Arg (KV.Do): a write unless the Op is a read (etcdOpRole)
	SQLBuilder                           // a query builder's Exec: the SQL is written out from the builder chain (sqlbuilders.go)
	SQLORM                               // an ORM's write: the SQL is written out from the call chain ending at the call (sqlorm.go)
	SQLNamed                             // a query run by the name at API.Arg, from a file of named queries (sqldotsql.go)
	EntGraph                             // an ent client's write (sqlgraph), read at the application's call of the generated builder (sqlent.go)
	MongoFilter                          // a MongoDB collection write, read as the SQL statement its filter and update amount to (mongo.go)
	ESConditional                        // fenced if the olivere/elastic request carries a version, IfSeqNo or OpType("create") (elastic.go)
	MinioConditional                     // fenced if the PutObjectOptions went through SetMatchETag or SetMatchETagExcept("*") (minio.go)
	DynamoConditional                    // fenced if the input's ConditionExpression compares an attribute or asks for absence (dynamodb.go)
	ESAPIConditional                     // fenced if the go-elasticsearch request sets IfSeqNo, a version or a create (esapi.go)
	NATSLastRevision                     // fenced if a NATS KV delete passes LastRevision(rev) (nats.go)
	KubeResourceVersion                  // fenced unless the object was built afresh, without a resourceVersion (kubeobjects.go)
	EtcdSTM                              // fenced if the STM reads the lease's key and decides on what it read (etcdstm.go)
	EtcdadptCompare                      // fenced if the etcdadpt transaction's compares at API.Arg are not nil
	RueidisCommand                       // the command is spelled by the builder chain of the Completed at API.Arg (rueidis.go): a write only if it names one
	EtcdSessionLease                     // fenced if the put binds its key to a session's lease (sessionlease.go)
)

// When says, for documentation, when a write under the rule is fenced;
// "" for NeverFenced.
func (r FenceRule) When() string {
	switch r {
	case SQLQuery:
		return "the statement compares a column with the lease's token (`WHERE fence < $2`) and `RowsAffected` is read, " +
			"or it is insert-if-absent, optimistic, a keyed state transition, a bounded decrement decided on the caller's inputs, derived from other rows, a delete by age, a tombstone or server configuration"
	case SQLPrepared:
		return "as for SQL text, read from the `Prepare` that made the statement"
	case SQLBuilder:
		return "as for SQL text, written out from the builder chain"
	case SQLORM:
		return "as for SQL text, written out from the ORM's call chain (`Where(\"fence < ?\", tok)`; GORM's `Save` only with `Select`, and its `RowsAffected` field read)"
	case SQLNamed:
		return "as for SQL text, read from the named query in an embedded file"
	case EntGraph:
		return "the builder's `Where` compares a fence column with the token (`doc.FenceLT(tok)`) and the caller reads the outcome " +
			"(`UpdateOne`'s not-found error, `Update`'s count), or a create is `OnConflict(...).DoNothing()`"
	case MongoFilter:
		return "the filter compares a fence field with the token (`\"fence\": bson.M{\"$lt\": tok}`) or holds a version the update bumps, " +
			"and `MatchedCount` (`ErrNoDocuments` for `FindOneAnd*`) is read; or an upsert only does `$setOnInsert`"
	case EtcdTxn:
		return "the `Txn`'s `If` compares ownership (`IsOwner()`, `CreateRevision(key) = rev`)"
	case EtcdSessionLease:
		return "the key is put with the session's lease (`WithLease(session.Lease())`): etcd refuses the put once the lease, and the lock on it, is gone"
	case EtcdSTM:
		return "the STM reads the lease's key (`stm.Rev(mutex.Key())`) and gives up when it is gone: " +
			"its commit then fails once the key changes; an STM's conflict check covers only the keys it reads, " +
			"so otherwise only a write it decides on what it read of its key (a create where absent, a move from " +
			"one state) or a counter's next value it hands out"
	case S3Conditional:
		return "the input sets `IfMatch` or `IfNoneMatch`"
	case GCSConditional:
		return "the object handle went through `If(storage.Conditions{...})`"
	case ESConditional:
		return "the request carries the lease's token as an external version (`Version(tok).VersionType(\"external\")`), " +
			"a version or `IfSeqNo`/`IfPrimaryTerm` read with the document, or `OpType(\"create\")`; a bulk request when every request added to it does; " +
			"an index request without a document ID adds a document and overwrites none"
	case DynamoConditional:
		return "the input's `ConditionExpression` compares an attribute (`#fence < :token`, `version = :read`) or is `attribute_not_exists(pk)`, " +
			"or the input sets the legacy `Expected`"
	case ESAPIConditional:
		return "as for olivere/elastic, read from the request's fields, its `With` options or the bulk item (`Action: \"create\"`)"
	case KubeResourceVersion:
		return "the object was read from the API server (a `Get`, a lister, a `DeepCopy` of one) and keeps its `resourceVersion`, " +
			"or the code sets `ResourceVersion`; not when it was built afresh (a literal, a constructor that returns one), " +
			"nor when its `ResourceVersion` is copied from an object the function has just read (a blind swap)"
	case NATSLastRevision:
		return "`Update` (a compare-and-set on the revision read) and `Create` always; a `Delete` or `Purge` that passes `LastRevision(rev)`"
	case MinioConditional:
		return "the `PutObjectOptions` went through `SetMatchETag(etag)` with the ETag read, or `SetMatchETagExcept(\"*\")` (create only)"
	case ConsulTxn:
		return "the `Txn` holds a check-session, check-index, cas or delete-cas op, or a check-not-exists op and no delete " +
			"(read also in the functions that build its ops)"
	case EtcdadptCompare:
		return "the transaction passes compares (`etcdadpt.If(etcdadpt.EqualVer(key, v))`), whatever they compare"
	case ZKVersion:
		return "the version passed is not -1"
	case ZKMulti:
		return "the ops hold a `CheckVersionRequest`"
	case ZKCreate:
		return "the node is not sequential (`Create` fails on an existing node)"
	case RedisScript:
		return "the Lua script compares a stored fence with the token"
	case RedisWatched:
		return "it runs in `WATCH`/`MULTI`/`EXEC`"
	case RedisCommand:
		return "redigo's command is queued after a `WATCH` in `MULTI`/`EXEC`"
	}
	return ""
}

// A System is a lock library or a store, as users know it.
type System string

const (
	Etcd       System = "etcd"
	Redsync    System = "redsync"
	Redislock  System = "bsm/redislock"
	GoZero     System = "go-zero"
	Rueidis    System = "rueidislock"
	CariDLock  System = "go-chassis dlock"
	Consul     System = "Consul"
	ZooKeeper  System = "ZooKeeper"
	Kubernetes System = "Kubernetes leader election"
	Gocron     System = "gocron"
	Raft       System = "raft"
	Postgres   System = "PostgreSQL"
	MySQL      System = "MySQL"
	SQL        System = "SQL database"
	Redis      System = "Redis"
	S3         System = "S3"
	GCS        System = "Cloud Storage"
	MongoDB    System = "MongoDB"
	Elastic    System = "Elasticsearch"
	MinIO      System = "MinIO"
	DynamoDB   System = "DynamoDB"
	NATSKV     System = "NATS JetStream KV"
	KubeAPI    System = "the Kubernetes API"
)

// An API is one row of the catalog.
type API struct {
	Pkg    string // import path with any major-version element (v2, v9) removed
	Recv   string // receiver type name without '*'; "" for a package func; "*" for any receiver in Pkg
	Name   string // func, method or field name
	Field  bool   // Name is a struct field
	Role   Role
	System System
	Fence  FenceRule
	Arg    int      // the argument the FenceRule reads (receiver excluded), when it reads one
	Note   string   // NotToken: why it is not monotonic; Token: what it is
	Held   HeldRule // RoleCheck: which uses of the result say the lease is held
	Loop   bool     // RoleRenew: repeats by itself until it fails or is stopped (RenewPeriodic)
	Var    bool     // Name is a package-level variable (crypto/rand.Reader)
	// Seeded, on a RoleFreshID or RoleEntropy row: only when the argument
	// at Arg is a RoleEntropy source (ulid.New's entropy, ulid.Monotonic's).
	Seeded bool
	// With, on a RoleHandler row: the field of the same struct that makes
	// the library take the lease when it is set (kooper's LeaderElector).
	With string
	// Unless, on a RoleHandler row: what lets the handler run without the
	// lease. On a field row, a field of the same struct that is set
	// (controller-runtime's Options.NeedLeaderElection); on a function row,
	// a method of the handler's type that does not always return true (a
	// Runnable's NeedLeaderElection).
	Unless string
}

// A HeldRule says, for a RoleCheck row, which uses of the result say that the
// lease is held.
type HeldRule uint8

const (
	AnyResult HeldRule = iota // any result: true, a nil error, a TTL above 0, a deadline ahead, a non-nil entry
	ValueOnly                 // only comparing the returned value with the holder's own ID (not its error)
	LockKeyAt                 // any result, but only when the key or path at API.Arg names a lock
	InLease                   // any result, but only where a lease is held: a connection's state vouches for no lease the code does not hold
	NotErr                    // any value, but not the error: the call answers a lost lease with a value (etcd's TTL of -1), and fails only when it could not ask
)

// Import paths, version elements removed (see normalizePath).
const (
	pkgEtcd        = "go.etcd.io/etcd/client"
	pkgEtcdConc    = "go.etcd.io/etcd/client/concurrency"
	pkgEtcdPB      = "go.etcd.io/etcd/api/etcdserverpb"
	pkgEtcdMVCC    = "go.etcd.io/etcd/api/mvccpb"
	pkgRedsync     = "github.com/go-redsync/redsync"
	pkgRedislock   = "github.com/bsm/redislock"
	pkgRueidisLock = "github.com/redis/rueidis/rueidislock"
	pkgCariDLock   = "github.com/go-chassis/cari/dlock"
	pkgEtcdadpt    = "github.com/little-cui/etcdadpt"
	pkgConsul      = "github.com/hashicorp/consul/api"
	pkgZK          = "github.com/go-zookeeper/zk"
	pkgLeader      = "k8s.io/client-go/tools/leaderelection"
	pkgResLock     = "k8s.io/client-go/tools/leaderelection/resourcelock"
	pkgCoordV1     = "k8s.io/api/coordination/v1"
	pkgKubeClient  = "k8s.io/client-go/kubernetes"
	pkgKubeCoreV1  = "k8s.io/client-go/kubernetes/typed/core/v1"
	pkgCtrlClient  = "sigs.k8s.io/controller-runtime/pkg/client"
	pkgCtrlBuilder = "sigs.k8s.io/controller-runtime/pkg/builder"
	pkgCtrlCtrl    = "sigs.k8s.io/controller-runtime/pkg/controller"
	pkgCtrlManager = "sigs.k8s.io/controller-runtime/pkg/manager"
	pkgGocron      = "github.com/go-co-op/gocron"
	pkgKooper      = "github.com/spotahome/kooper/controller"
	pkgRaft        = "github.com/hashicorp/raft"
	pkgSQL         = "database/sql"
	pkgPgx         = "github.com/jackc/pgx"
	pkgPgxpool     = "github.com/jackc/pgx/pgxpool"
	pkgGoRedis     = "github.com/redis/go-redis"
	pkgRedigo      = "github.com/gomodule/redigo/redis"
	pkgS3          = "github.com/aws/aws-sdk-go-v2/service/s3"
	pkgS3Manager   = "github.com/aws/aws-sdk-go-v2/feature/s3/manager"
	pkgS3v1        = "github.com/aws/aws-sdk-go/service/s3"
	pkgS3v1Upload  = "github.com/aws/aws-sdk-go/service/s3/s3manager"
	pkgDynamo      = "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	pkgDynamoV1    = "github.com/aws/aws-sdk-go/service/dynamodb"
	pkgGCS         = "cloud.google.com/go/storage"
	pkgElastic     = "github.com/olivere/elastic"
	pkgMinio       = "github.com/minio/minio-go"
	pkgESAPI       = "github.com/elastic/go-elasticsearch/esapi"
	pkgNATS        = "github.com/nats-io/nats.go"
	pkgNATSJS      = "github.com/nats-io/nats.go/jetstream"
	pkgESUtil      = "github.com/elastic/go-elasticsearch/esutil"
	pkgUUID        = "github.com/google/uuid"
	pkgGofrsUUID   = "github.com/gofrs/uuid"
	pkgPbormanUUID = "github.com/pborman/uuid"
	pkgHashiUUID   = "github.com/hashicorp/go-uuid"
	pkgSonyflake   = "github.com/sony/sonyflake"
	pkgSnowflake   = "github.com/bwmarrin/snowflake"
	pkgXID         = "github.com/rs/xid"
	pkgKSUID       = "github.com/segmentio/ksuid"
	pkgULID        = "github.com/oklog/ulid"
	pkgTime        = "time"
	pkgMathRand    = "math/rand"
	pkgCryptoRand  = "crypto/rand"
	pkgOS          = "os"
)

// What runs a reconciler or a runnable registered with controller-runtime.
const (
	ctrlManager  = "the controller-runtime manager that runs this reconciler"
	ctrlRunnable = "the controller-runtime manager that starts this runnable"
)

// catalog returns every known API. It is a function, not a variable, so the
// analyzers share no mutable state; the index built from it lives in one pass.
func catalog() []API {
	var c []API
	add := func(apis ...API) { c = append(c, apis...) }

	// etcd: concurrency.Session, Mutex, Election.
	add(
		API{Pkg: pkgEtcdConc, Name: "NewSession", Role: RoleGrant | RoleAutoRenew, System: Etcd},
		API{Pkg: pkgEtcdConc, Name: "WithLease", Role: RoleOnLease, System: Etcd},
		API{Pkg: pkgEtcdConc, Recv: "Session", Name: "Done", Role: RoleLost, System: Etcd},
		API{Pkg: pkgEtcdConc, Recv: "Session", Name: "Ctx", Role: RoleLost, System: Etcd},
		API{Pkg: pkgEtcdConc, Recv: "Session", Name: "Close", Role: RoleRelease, System: Etcd},
		API{Pkg: pkgEtcdConc, Recv: "Session", Name: "Lease", Role: RoleNotToken, System: Etcd,
			Note: "an etcd lease ID is picked per cluster member from a clock and a counter, so IDs from different members are not ordered"},
		API{Pkg: pkgEtcdConc, Name: "NewLocker", Role: RoleLocker, System: Etcd},
		API{Pkg: pkgEtcdConc, Recv: "Mutex", Name: "Lock", Role: RoleAcquire, System: Etcd},
		API{Pkg: pkgEtcdConc, Recv: "Mutex", Name: "TryLock", Role: RoleTryAcquire, System: Etcd},
		API{Pkg: pkgEtcdConc, Recv: "Mutex", Name: "Unlock", Role: RoleRelease, System: Etcd},
		API{Pkg: pkgEtcdConc, Recv: "Mutex", Name: "Header", Role: RoleToken, System: Etcd,
			Note: "the store revision at which this holder's ownership was confirmed"},
		API{Pkg: pkgEtcdConc, Recv: "Mutex", Name: "Key", Role: RoleNotToken, System: Etcd,
			Note: "the mutex key is the prefix plus the hex lease ID, which is not ordered"},
		API{Pkg: pkgEtcdConc, Recv: "Election", Name: "Campaign", Role: RoleAcquire, System: Etcd},
		API{Pkg: pkgEtcdConc, Recv: "Election", Name: "Resign", Role: RoleRelease, System: Etcd},
		API{Pkg: pkgEtcdConc, Recv: "Election", Name: "Proclaim", Role: RoleFenced, System: Etcd},
		API{Pkg: pkgEtcdConc, Recv: "Election", Name: "Leader", Role: RoleCheck, System: Etcd, Held: ValueOnly},
		API{Pkg: pkgEtcdConc, Recv: "Election", Name: "Observe", Role: RoleObserve, System: Etcd},
		API{Pkg: pkgEtcdConc, Recv: "Election", Name: "Rev", Role: RoleToken, System: Etcd,
			Note: "the leader key's create revision"},
		API{Pkg: pkgEtcdConc, Recv: "Election", Name: "Key", Role: RoleNotToken, System: Etcd,
			Note: "the leader key is the prefix plus the hex lease ID, which is not ordered"},
		// etcd: Lease and KV interfaces (Client embeds both).
		API{Pkg: pkgEtcd, Recv: "Lease", Name: "Grant", Role: RoleGrant, System: Etcd},
		API{Pkg: pkgEtcd, Recv: "Lease", Name: "KeepAlive", Role: RoleAutoRenew | RoleLost, System: Etcd},
		API{Pkg: pkgEtcd, Recv: "Lease", Name: "KeepAliveOnce", Role: RoleRenew, System: Etcd},
		API{Pkg: pkgEtcd, Recv: "Lease", Name: "Revoke", Role: RoleRelease, System: Etcd},
		API{Pkg: pkgEtcd, Recv: "Lease", Name: "TimeToLive", Role: RoleCheck, System: Etcd, Held: NotErr},
		API{Pkg: pkgEtcd, Recv: "KV", Name: "Put", Role: RoleWrite, System: Etcd, Fence: EtcdSessionLease},
		API{Pkg: pkgEtcd, Recv: "KV", Name: "Delete", Role: RoleWrite, System: Etcd},
		API{Pkg: pkgEtcd, Recv: "KV", Name: "Do", Role: RoleWrite, System: Etcd, Fence: EtcdOp, Arg: 1},
		API{Pkg: pkgEtcd, Recv: "Txn", Name: "Commit", Role: RoleWrite, System: Etcd, Fence: EtcdTxn},
		API{Pkg: pkgEtcdConc, Recv: "STM", Name: "Put", Role: RoleWrite, System: Etcd, Fence: EtcdSTM},
		API{Pkg: pkgEtcdConc, Recv: "STM", Name: "Del", Role: RoleWrite, System: Etcd, Fence: EtcdSTM},
		API{Pkg: pkgEtcd, Recv: "LeaseGrantResponse", Name: "ID", Field: true, Role: RoleNotToken, System: Etcd,
			Note: "an etcd lease ID is picked per cluster member from a clock and a counter, so IDs from different members are not ordered"},
		API{Pkg: pkgEtcdPB, Recv: "ResponseHeader", Name: "Revision", Field: true, Role: RoleToken, System: Etcd,
			Note: "the store revision"},
		API{Pkg: pkgEtcdMVCC, Recv: "KeyValue", Name: "CreateRevision", Field: true, Role: RoleToken, System: Etcd,
			Note: "the key's create revision"},
		API{Pkg: pkgEtcdMVCC, Recv: "KeyValue", Name: "ModRevision", Field: true, Role: RoleToken, System: Etcd,
			Note: "the key's mod revision"},
		API{Pkg: pkgEtcdMVCC, Recv: "KeyValue", Name: "Version", Field: true, Role: RoleNotToken, System: Etcd,
			Note: "a key's Version counts its writes and restarts at 1 when the key is deleted and recreated"},
		API{Pkg: pkgEtcdMVCC, Recv: "KeyValue", Name: "Lease", Field: true, Role: RoleNotToken, System: Etcd,
			Note: "an etcd lease ID is picked per cluster member from a clock and a counter, so IDs from different members are not ordered"},
	)

	// redsync v4.
	add(
		API{Pkg: pkgRedsync, Recv: "Mutex", Name: "Lock", Role: RoleAcquire, System: Redsync},
		API{Pkg: pkgRedsync, Recv: "Mutex", Name: "LockContext", Role: RoleAcquire, System: Redsync},
		API{Pkg: pkgRedsync, Recv: "Mutex", Name: "TryLock", Role: RoleTryAcquire, System: Redsync},
		API{Pkg: pkgRedsync, Recv: "Mutex", Name: "TryLockContext", Role: RoleTryAcquire, System: Redsync},
		API{Pkg: pkgRedsync, Recv: "Mutex", Name: "Unlock", Role: RoleRelease, System: Redsync},
		API{Pkg: pkgRedsync, Recv: "Mutex", Name: "UnlockContext", Role: RoleRelease, System: Redsync},
		API{Pkg: pkgRedsync, Recv: "Mutex", Name: "Extend", Role: RoleRenew, System: Redsync},
		API{Pkg: pkgRedsync, Recv: "Mutex", Name: "ExtendContext", Role: RoleRenew, System: Redsync},
		API{Pkg: pkgRedsync, Recv: "Mutex", Name: "Valid", Role: RoleCheck, System: Redsync},
		API{Pkg: pkgRedsync, Recv: "Mutex", Name: "ValidContext", Role: RoleCheck, System: Redsync},
		API{Pkg: pkgRedsync, Recv: "Mutex", Name: "Until", Role: RoleCheck, System: Redsync},
		API{Pkg: pkgRedsync, Recv: "Mutex", Name: "Value", Role: RoleNotToken, System: Redsync,
			Note: "redsync's value is 16 random bytes, so a later holder's value is as likely smaller as larger"},
	)

	// bsm/redislock.
	add(
		API{Pkg: pkgRedislock, Name: "Obtain", Role: RoleTryAcquire, System: Redislock},
		API{Pkg: pkgRedislock, Recv: "Client", Name: "Obtain", Role: RoleTryAcquire, System: Redislock},
		API{Pkg: pkgRedislock, Recv: "Lock", Name: "Release", Role: RoleRelease, System: Redislock},
		API{Pkg: pkgRedislock, Recv: "Lock", Name: "Refresh", Role: RoleRenew, System: Redislock},
		API{Pkg: pkgRedislock, Recv: "Lock", Name: "TTL", Role: RoleCheck, System: Redislock},
		API{Pkg: pkgRedislock, Recv: "Lock", Name: "Token", Role: RoleNotToken, System: Redislock,
			Note: "redislock's token is random bytes (or a caller-chosen string), so it is not ordered"},
		API{Pkg: pkgRedislock, Recv: "Lock", Name: "Metadata", Role: RoleNotToken, System: Redislock,
			Note: "redislock's metadata is an arbitrary caller string the store never orders"},
	)

	// rueidislock: the lock is the context WithContext returns, kept
	// alive by the Locker and canceled once the lock is lost; the cancel
	// func it returns beside it releases (resolveReleaseFunc).
	add(
		API{Pkg: pkgRueidisLock, Recv: "Locker", Name: "WithContext", Role: RoleAcquire | RoleAutoRenew | RoleLost, System: Rueidis},
		API{Pkg: pkgRueidisLock, Recv: "Locker", Name: "TryWithContext", Role: RoleTryAcquire | RoleAutoRenew | RoleLost, System: Rueidis},
		API{Pkg: pkgRueidisLock, Recv: "Locker", Name: "ForceWithContext", Role: RoleAcquire | RoleAutoRenew | RoleLost, System: Rueidis},
	)

	// go-chassis's dlock: a package-level lock keyed by name over the backend
	// installed at start-up (etcdadpt's by default), and the DLock
	// interface dlock.Instance returns. Its lock is an etcd key put with a
	// lease if absent; IsHoldLock reads only the process's own map.
	for _, recv := range []string{"", "DLock"} {
		add(
			API{Pkg: pkgCariDLock, Recv: recv, Name: "Lock", Role: RoleAcquire, System: CariDLock},
			API{Pkg: pkgCariDLock, Recv: recv, Name: "TryLock", Role: RoleTryAcquire, System: CariDLock},
			API{Pkg: pkgCariDLock, Recv: recv, Name: "Unlock", Role: RoleRelease, System: CariDLock},
			API{Pkg: pkgCariDLock, Recv: recv, Name: "Renew", Role: RoleRenew, System: CariDLock},
			API{Pkg: pkgCariDLock, Recv: recv, Name: "IsHoldLock", Role: RoleCheck, System: CariDLock},
		)
	}

	// etcdadpt: the etcd adapter under go-chassis (dlock's backend, and the
	// store of the applications built on it), a package-level API over the
	// client installed at start-up. Its Insert puts only if the key is
	// absent; TxnWithCmp runs its ops only if its compares hold.
	add(
		API{Pkg: pkgEtcdadpt, Name: "Lock", Role: RoleAcquire, System: Etcd},
		API{Pkg: pkgEtcdadpt, Name: "TryLock", Role: RoleTryAcquire, System: Etcd},
		API{Pkg: pkgEtcdadpt, Recv: "DLock", Name: "Unlock", Role: RoleRelease, System: Etcd},
		API{Pkg: pkgEtcdadpt, Recv: "DLock", Name: "Refresh", Role: RoleRenew, System: Etcd},
		API{Pkg: pkgEtcdadpt, Recv: "DLock", Name: "ID", Role: RoleNotToken, System: Etcd,
			Note: "an etcdadpt lock ID is the host name, the process ID and the time it was asked for"},
		API{Pkg: pkgEtcdadpt, Name: "Insert", Role: RoleFenced, System: Etcd},
		API{Pkg: pkgEtcdadpt, Name: "InsertBytes", Role: RoleFenced, System: Etcd},
		API{Pkg: pkgEtcdadpt, Name: "TxnWithCmp", Role: RoleWrite, System: Etcd, Fence: EtcdadptCompare, Arg: 2},
		API{Pkg: pkgEtcdadpt, Recv: "Client", Name: "TxnWithCmp", Role: RoleWrite, System: Etcd, Fence: EtcdadptCompare, Arg: 2},
		API{Pkg: pkgEtcdadpt, Recv: "Client", Name: "Txn", Role: RoleWrite, System: Etcd},
	)
	for _, name := range []string{"Put", "PutBytes", "PutBytesAndGet", "Delete", "DeleteMany", "ListAndDelete", "ListAndDeleteMany", "Txn"} {
		add(API{Pkg: pkgEtcdadpt, Name: name, Role: RoleWrite, System: Etcd})
	}

	// Consul.
	add(
		API{Pkg: pkgConsul, Recv: "Lock", Name: "Lock", Role: RoleAcquire | RoleAutoRenew | RoleLost, System: Consul},
		API{Pkg: pkgConsul, Recv: "Lock", Name: "Unlock", Role: RoleRelease, System: Consul},
		API{Pkg: pkgConsul, Recv: "Semaphore", Name: "Acquire", Role: RoleAcquire | RoleAutoRenew | RoleLost, System: Consul},
		API{Pkg: pkgConsul, Recv: "Semaphore", Name: "Release", Role: RoleRelease, System: Consul},
		API{Pkg: pkgConsul, Recv: "Session", Name: "Create", Role: RoleGrant | RoleNotToken, System: Consul,
			Note: "a Consul session ID is a random UUID"},
		API{Pkg: pkgConsul, Recv: "Session", Name: "CreateNoChecks", Role: RoleGrant | RoleNotToken, System: Consul,
			Note: "a Consul session ID is a random UUID"},
		API{Pkg: pkgConsul, Recv: "Session", Name: "Renew", Role: RoleRenew, System: Consul},
		API{Pkg: pkgConsul, Recv: "Session", Name: "RenewPeriodic", Role: RoleRenew, System: Consul, Loop: true},
		API{Pkg: pkgConsul, Recv: "Session", Name: "Destroy", Role: RoleRelease, System: Consul},
		API{Pkg: pkgConsul, Recv: "Session", Name: "Info", Role: RoleCheck, System: Consul},
		API{Pkg: pkgConsul, Recv: "KV", Name: "Acquire", Role: RoleTryAcquire, System: Consul},
		API{Pkg: pkgConsul, Recv: "KV", Name: "Release", Role: RoleRelease, System: Consul},
		API{Pkg: pkgConsul, Recv: "KV", Name: "Put", Role: RoleWrite, System: Consul},
		API{Pkg: pkgConsul, Recv: "KV", Name: "Delete", Role: RoleWrite, System: Consul},
		API{Pkg: pkgConsul, Recv: "KV", Name: "DeleteTree", Role: RoleWrite, System: Consul},
		API{Pkg: pkgConsul, Recv: "KV", Name: "CAS", Role: RoleFenced, System: Consul},
		API{Pkg: pkgConsul, Recv: "KV", Name: "DeleteCAS", Role: RoleFenced, System: Consul},
		API{Pkg: pkgConsul, Recv: "Txn", Name: "Txn", Role: RoleWrite, System: Consul, Fence: ConsulTxn},
		API{Pkg: pkgConsul, Recv: "KV", Name: "Txn", Role: RoleWrite, System: Consul, Fence: ConsulTxn},
		API{Pkg: pkgConsul, Recv: "KVPair", Name: "ModifyIndex", Field: true, Role: RoleToken, System: Consul,
			Note: "the Raft index of the key's last write"},
		API{Pkg: pkgConsul, Recv: "KVPair", Name: "CreateIndex", Field: true, Role: RoleToken, System: Consul,
			Note: "the Raft index of the key's creation"},
		API{Pkg: pkgConsul, Recv: "KVPair", Name: "LockIndex", Field: true, Role: RoleNotToken, System: Consul,
			Note: "Consul's LockIndex restarts at 1 when the lock key is deleted (Lock.Destroy, a session with Behavior \"delete\")"},
		API{Pkg: pkgConsul, Recv: "KVPair", Name: "Session", Field: true, Role: RoleNotToken | RoleCheck, System: Consul,
			Held: ValueOnly, // the lock key's pair, read back and compared with our session: a check
			Note: "a Consul session ID is a random UUID"},
	)

	// ZooKeeper.
	add(
		API{Pkg: pkgZK, Name: "Connect", Role: RoleGrant | RoleAutoRenew, System: ZooKeeper},
		API{Pkg: pkgZK, Name: "WithEventCallback", Role: RoleEventCallback, System: ZooKeeper},
		API{Pkg: pkgZK, Recv: "Lock", Name: "Lock", Role: RoleAcquire, System: ZooKeeper},
		API{Pkg: pkgZK, Recv: "Lock", Name: "LockWithData", Role: RoleAcquire, System: ZooKeeper},
		API{Pkg: pkgZK, Recv: "Lock", Name: "Unlock", Role: RoleRelease, System: ZooKeeper},
		API{Pkg: pkgZK, Recv: "Conn", Name: "Set", Role: RoleWrite, System: ZooKeeper, Fence: ZKVersion, Arg: 2},
		API{Pkg: pkgZK, Recv: "Conn", Name: "Delete", Role: RoleWrite, System: ZooKeeper, Fence: ZKVersion, Arg: 1},
		API{Pkg: pkgZK, Recv: "Conn", Name: "Create", Role: RoleWrite, System: ZooKeeper, Fence: ZKCreate, Arg: 2},
		// The lock recipe's claim, as zk.Lock makes it: an ephemeral sequential
		// node that lives as long as the session (Create with FlagEphemeral|
		// FlagSequence is read the same way, roles.go).
		API{Pkg: pkgZK, Recv: "Conn", Name: "CreateProtectedEphemeralSequential", Role: RoleTryAcquire, System: ZooKeeper},
		API{Pkg: pkgZK, Recv: "Conn", Name: "Multi", Role: RoleWrite, System: ZooKeeper, Fence: ZKMulti},
		API{Pkg: pkgZK, Recv: "Conn", Name: "State", Role: RoleCheck, System: ZooKeeper, Held: InLease},
		API{Pkg: pkgZK, Recv: "Conn", Name: "Exists", Role: RoleCheck, System: ZooKeeper, Held: LockKeyAt, Arg: 0},
		API{Pkg: pkgZK, Recv: "Conn", Name: "SessionID", Role: RoleNotToken, System: ZooKeeper,
			Note: "a ZooKeeper session ID is not ordered across sessions"},
		API{Pkg: pkgZK, Recv: "Stat", Name: "Czxid", Field: true, Role: RoleToken, System: ZooKeeper,
			Note: "the zxid of the node's creation"},
		API{Pkg: pkgZK, Recv: "Stat", Name: "Mzxid", Field: true, Role: RoleToken, System: ZooKeeper,
			Note: "the zxid of the node's last write"},
		API{Pkg: pkgZK, Recv: "Stat", Name: "Version", Field: true, Role: RoleNotToken, System: ZooKeeper,
			Note: "a znode's Version counts its writes and restarts at 0 when the node is recreated"},
	)

	// Kubernetes leader election.
	add(
		API{Pkg: pkgLeader, Name: "RunOrDie", Role: RoleAutoRenew, System: Kubernetes},
		API{Pkg: pkgLeader, Recv: "LeaderElector", Name: "Run", Role: RoleAutoRenew, System: Kubernetes},
		API{Pkg: pkgLeader, Recv: "LeaderCallbacks", Name: "OnStartedLeading", Field: true, Role: RoleCallback | RoleLost, System: Kubernetes},
		API{Pkg: pkgLeader, Recv: "LeaderCallbacks", Name: "OnStoppedLeading", Field: true, Role: RoleOnLost, System: Kubernetes},
		API{Pkg: pkgLeader, Recv: "LeaderElector", Name: "IsLeader", Role: RoleCheck, System: Kubernetes},
		API{Pkg: pkgLeader, Recv: "LeaderElector", Name: "GetLeader", Role: RoleCheck, System: Kubernetes, Held: ValueOnly},
		API{Pkg: pkgResLock, Recv: "LeaderElectionRecord", Name: "LeaderTransitions", Field: true, Role: RoleNotToken, System: Kubernetes,
			Note: "LeaderTransitions does not move when the same identity re-acquires and restarts at 0 when the Lease object is recreated"},
		API{Pkg: pkgResLock, Recv: "LeaderElectionRecord", Name: "HolderIdentity", Field: true, Role: RoleNotToken, System: Kubernetes,
			Note: "a holder identity is a name, not an ordered number"},
		API{Pkg: pkgCoordV1, Recv: "LeaseSpec", Name: "LeaseTransitions", Field: true, Role: RoleNotToken, System: Kubernetes,
			Note: "LeaseTransitions does not move when the same identity re-acquires and restarts at 0 when the Lease object is recreated"},
		// kooper's controller runs its handler under client-go leader
		// election when its config names a LeaderElector.
		API{Pkg: pkgKooper, Recv: "Config", Name: "Handler", Field: true, Role: RoleHandler, System: Kubernetes, With: "LeaderElector"},
		// controller-runtime's manager runs the reconciler a builder
		// completes under its leader election (Options.LeaderElection,
		// which an HA deployment turns on): each Reconcile is entered
		// holding the lease.
		API{Pkg: pkgCtrlBuilder, Recv: "TypedBuilder", Name: "Complete", Role: RoleHandler, System: Kubernetes, Note: ctrlManager},
		API{Pkg: pkgCtrlBuilder, Recv: "TypedBuilder", Name: "Build", Role: RoleHandler, System: Kubernetes, Note: ctrlManager},
		API{Pkg: pkgCtrlBuilder, Recv: "Builder", Name: "Complete", Role: RoleHandler, System: Kubernetes, Note: ctrlManager}, // before 0.19
		API{Pkg: pkgCtrlBuilder, Recv: "Builder", Name: "Build", Role: RoleHandler, System: Kubernetes, Note: ctrlManager},
		// controller.New registers the Reconciler its options name, unless
		// they let the controller run on every replica.
		API{Pkg: pkgCtrlCtrl, Recv: "TypedOptions", Name: "Reconciler", Field: true, Role: RoleHandler, System: Kubernetes,
			Note: ctrlManager, Unless: "NeedLeaderElection"},
		API{Pkg: pkgCtrlCtrl, Recv: "Options", Name: "Reconciler", Field: true, Role: RoleHandler, System: Kubernetes,
			Note: ctrlManager, Unless: "NeedLeaderElection"}, // before 0.19
		// The manager starts a runnable it is given only once it leads,
		// unless the runnable says it needs no leader election.
		API{Pkg: pkgCtrlManager, Recv: "Manager", Name: "Add", Role: RoleHandler, System: Kubernetes,
			Note: ctrlRunnable, Unless: "NeedLeaderElection"},
	)

	// Kubernetes API objects: an Update is a compare-and-set on the
	// object's resourceVersion, unless the object was built afresh
	// (kubeobjects.go). The typed clients' Update and UpdateStatus (the
	// clientset's, the dynamic client's, and those of clientsets client-gen
	// generates in the application) are recognised by their
	// metav1.UpdateOptions parameter (kubeTypedUpdate) and share these
	// rows; controller-runtime's client by its package (its status and
	// subresource writers' Update too). Create, Patch and Delete are not
	// read.
	for _, name := range []string{"Update", "UpdateStatus"} {
		add(API{Pkg: pkgKubeCoreV1, Recv: "*", Name: name, Role: RoleWrite, System: KubeAPI, Fence: KubeResourceVersion, Arg: 1})
	}
	add(API{Pkg: pkgCtrlClient, Recv: "*", Name: "Update", Role: RoleWrite, System: KubeAPI, Fence: KubeResourceVersion, Arg: 1})

	// gocron v2.
	add(
		API{Pkg: pkgGocron, Name: "WithDistributedLocker", Role: RoleElect, System: Gocron},
		API{Pkg: pkgGocron, Name: "WithDistributedJobLocker", Role: RoleElect, System: Gocron},
		API{Pkg: pkgGocron, Name: "WithDistributedElector", Role: RoleElect, System: Gocron},
		API{Pkg: pkgGocron, Name: "NewTask", Role: RoleCallback, System: Gocron},
		API{Pkg: pkgGocron, Recv: "Elector", Name: "IsLeader", Role: RoleCheck, System: Gocron},
		API{Pkg: pkgGocron, Recv: "Locker", Name: "Lock", Role: RoleAcquire, System: Gocron},
		API{Pkg: pkgGocron, Recv: "Lock", Name: "Unlock", Role: RoleRelease, System: Gocron},
	)
	// gocron v1 (the same import path but for /v2, so the Locker, Lock
	// and Elector rows above serve it too): the scheduler is configured by
	// its methods, and a job's func is what Do (after Every(...).Minute()
	// or Cron(...)) runs, under the scheduler's locker or elector.
	add(
		API{Pkg: pkgGocron, Recv: "Scheduler", Name: "WithDistributedLocker", Role: RoleElect, System: Gocron},
		API{Pkg: pkgGocron, Recv: "Scheduler", Name: "WithDistributedElector", Role: RoleElect, System: Gocron},
		API{Pkg: pkgGocron, Recv: "Scheduler", Name: "Do", Role: RoleCallback, System: Gocron},
		API{Pkg: pkgGocron, Recv: "Scheduler", Name: "DoWithJobDetails", Role: RoleCallback, System: Gocron},
	)

	// hashicorp/raft.
	add(
		API{Pkg: pkgRaft, Recv: "Raft", Name: "State", Role: RoleCheck, System: Raft},
		API{Pkg: pkgRaft, Recv: "Raft", Name: "VerifyLeader", Role: RoleCheck, System: Raft},
		API{Pkg: pkgRaft, Recv: "Raft", Name: "Leader", Role: RoleCheck, System: Raft, Held: ValueOnly},
		API{Pkg: pkgRaft, Recv: "Raft", Name: "LeaderWithID", Role: RoleCheck, System: Raft, Held: ValueOnly},
		API{Pkg: pkgRaft, Recv: "Raft", Name: "LeaderCh", Role: RoleLost, System: Raft},
		API{Pkg: pkgRaft, Recv: "Raft", Name: "Apply", Role: RoleFenced, System: Raft},
		API{Pkg: pkgRaft, Recv: "Raft", Name: "ApplyLog", Role: RoleFenced, System: Raft},
		API{Pkg: pkgRaft, Recv: "Raft", Name: "CurrentTerm", Role: RoleToken, System: Raft,
			Note: "the Raft term, which grows with every election"},
	)

	// database/sql and pgx: the SQL text decides (writes, fences, advisory locks).
	for _, recv := range []string{"DB", "Conn", "Tx"} {
		add(
			API{Pkg: pkgSQL, Recv: recv, Name: "ExecContext", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 1},
			API{Pkg: pkgSQL, Recv: recv, Name: "QueryContext", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 1},
			API{Pkg: pkgSQL, Recv: recv, Name: "QueryRowContext", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 1},
		)
	}
	for _, recv := range []string{"DB", "Tx"} { // sql.Conn has only the Context forms
		add(
			API{Pkg: pkgSQL, Recv: recv, Name: "Exec", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 0},
			API{Pkg: pkgSQL, Recv: recv, Name: "Query", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 0},
			API{Pkg: pkgSQL, Recv: recv, Name: "QueryRow", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 0},
		)
	}
	for _, name := range []string{"Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext"} {
		add(API{Pkg: pkgSQL, Recv: "Stmt", Name: name, Role: RoleWrite, System: SQL, Fence: SQLPrepared})
	}
	// A pgx connection is a session of its own: closing it ends the
	// session's advisory locks (a pooled connection's Release, or
	// database/sql's Conn.Close, hands the session back still holding them).
	add(API{Pkg: pkgPgx, Recv: "Conn", Name: "Close", Role: RoleEndsSession, System: Postgres})
	for _, recv := range []string{"Conn", "Tx"} {
		add(
			API{Pkg: pkgPgx, Recv: recv, Name: "Exec", Role: RoleWrite, System: Postgres, Fence: SQLQuery, Arg: 1},
			API{Pkg: pkgPgx, Recv: recv, Name: "Query", Role: RoleWrite, System: Postgres, Fence: SQLQuery, Arg: 1},
			API{Pkg: pkgPgx, Recv: recv, Name: "QueryRow", Role: RoleWrite, System: Postgres, Fence: SQLQuery, Arg: 1},
			API{Pkg: pkgPgx, Recv: recv, Name: "CopyFrom", Role: RoleWrite, System: Postgres},
		)
	}
	for _, recv := range []string{"Pool", "Conn", "Tx"} {
		add(
			API{Pkg: pkgPgxpool, Recv: recv, Name: "Exec", Role: RoleWrite, System: Postgres, Fence: SQLQuery, Arg: 1},
			API{Pkg: pkgPgxpool, Recv: recv, Name: "Query", Role: RoleWrite, System: Postgres, Fence: SQLQuery, Arg: 1},
			API{Pkg: pkgPgxpool, Recv: recv, Name: "QueryRow", Role: RoleWrite, System: Postgres, Fence: SQLQuery, Arg: 1},
			API{Pkg: pkgPgxpool, Recv: recv, Name: "CopyFrom", Role: RoleWrite, System: Postgres},
		)
	}
	add(API{Pkg: pkgPgx, Recv: "Batch", Name: "Queue", Role: RoleWrite, System: Postgres, Fence: SQLQuery, Arg: 0})

	// go-redis (every import path it had, see forks): commands live on the
	// unexported cmdable func type and on many *Cmdable interfaces, so any
	// receiver in the package matches.
	for _, name := range redisWrites() {
		role := RoleWrite
		if name == "Incr" || name == "IncrBy" {
			role |= RoleCounter
		}
		if slices.Contains(redisRefreshes(), name) {
			role |= RoleRefresh
		}
		add(API{Pkg: pkgGoRedis, Recv: "*", Name: name, Role: role, System: Redis})
	}
	// Messages are not writes. A PUBLISH reaches the channel's subscribers
	// of the moment and is gone: Redis keeps nothing that a later holder
	// wrote and a stale one could overwrite. An XADD appends an entry
	// under a new ID (an explicit ID must be above the stream's last):
	// every entry before it stays, and stream consumers already see an
	// entry twice (a consumer group redelivers what was not acknowledged),
	// so a stale holder's extra event is one they handle. What a stale
	// publisher can do is make subscribers act on an old event; where they
	// apply events as state, last writer wins, the fence belongs in the
	// message (the lease's token, which subscribers compare), and the
	// publishing function can be declared //fencelint:write to have it
	// reported.
	for _, name := range []string{"Publish", "SPublish", "XAdd"} {
		add(API{Pkg: pkgGoRedis, Recv: "*", Name: name, Role: RoleMessage, System: Redis})
	}
	add(
		API{Pkg: pkgGoRedis, Recv: "*", Name: "SetNX", Role: RoleTryAcquire, System: Redis},
		API{Pkg: pkgGoRedis, Recv: "*", Name: "Eval", Role: RoleWrite, System: Redis, Fence: RedisScript, Arg: 1},
		API{Pkg: pkgGoRedis, Recv: "*", Name: "EvalSha", Role: RoleWrite, System: Redis, Fence: RedisScript, Arg: 1},
		API{Pkg: pkgGoRedis, Recv: "Script", Name: "Run", Role: RoleWrite, System: Redis, Fence: RedisScript, Arg: -1},
		API{Pkg: pkgGoRedis, Recv: "Script", Name: "EvalSha", Role: RoleWrite, System: Redis, Fence: RedisScript, Arg: -1},
		API{Pkg: pkgGoRedis, Recv: "Script", Name: "Eval", Role: RoleWrite, System: Redis, Fence: RedisScript, Arg: -1},
		API{Pkg: pkgGoRedis, Recv: "*", Name: "PTTL", Role: RoleCheck, System: Redis, Held: LockKeyAt, Arg: 1},
		API{Pkg: pkgGoRedis, Recv: "*", Name: "TTL", Role: RoleCheck, System: Redis, Held: LockKeyAt, Arg: 1},
	)

	// redigo: one method runs every command, named by its first string
	// argument (redigoRole in roles.go reads it), on the Conn interface and
	// its implementations; the package funcs take the Conn first.
	for _, name := range []string{"Do", "Send", "DoContext", "DoWithTimeout"} {
		add(API{Pkg: pkgRedigo, Recv: "*", Name: name, Role: RoleWrite, System: Redis, Fence: RedisCommand})
	}
	for _, name := range []string{"DoContext", "DoWithTimeout"} {
		add(API{Pkg: pkgRedigo, Name: name, Role: RoleWrite, System: Redis, Fence: RedisCommand})
	}

	// rueidis: a command built on the client's builder (rueidis.go).
	// Do is declared on CommandClient (v1.0.56 on) or CoreClient (before),
	// which Client and DedicatedClient embed.
	add(API{Pkg: pkgRueidis, Recv: "*", Name: "Do", Role: RoleWrite, System: Redis, Fence: RueidisCommand, Arg: 1})

	// go-zero's Redis store and its RedisLock (redisgozero.go).
	add(goZeroRedisCatalog()...)

	// S3 and its upload manager.
	for _, name := range []string{"PutObject", "DeleteObject", "CopyObject", "CompleteMultipartUpload"} {
		add(API{Pkg: pkgS3, Recv: "Client", Name: name, Role: RoleWrite, System: S3, Fence: S3Conditional, Arg: 1})
	}
	for _, name := range []string{"DeleteObjects", "PutObjectTagging", "PutObjectAcl", "PutObjectRetention", "PutObjectLegalHold"} {
		add(API{Pkg: pkgS3, Recv: "Client", Name: name, Role: RoleWrite, System: S3})
	}
	add(API{Pkg: pkgS3Manager, Recv: "Uploader", Name: "Upload", Role: RoleWrite, System: S3, Fence: S3Conditional, Arg: 1})

	// S3 through aws-sdk-go v1, still common in applications: its write
	// inputs have no IfMatch or IfNoneMatch (v1.55, its last release, has
	// them only on GetObject and HeadObject), so no write can be
	// conditional (s3v1Advice says what to do instead).
	for _, name := range []string{"PutObject", "DeleteObject", "CopyObject", "CompleteMultipartUpload", "DeleteObjects",
		"PutObjectTagging", "PutObjectAcl", "PutObjectRetention", "PutObjectLegalHold"} {
		add(API{Pkg: pkgS3v1, Recv: "S3", Name: name, Role: RoleWrite, System: S3},
			API{Pkg: pkgS3v1, Recv: "S3", Name: name + "WithContext", Role: RoleWrite, System: S3})
	}
	add(API{Pkg: pkgS3v1Upload, Recv: "Uploader", Name: "Upload", Role: RoleWrite, System: S3},
		API{Pkg: pkgS3v1Upload, Recv: "Uploader", Name: "UploadWithContext", Role: RoleWrite, System: S3})

	// Cloud Storage.
	add(
		API{Pkg: pkgGCS, Recv: "ObjectHandle", Name: "NewWriter", Role: RoleWrite, System: GCS, Fence: GCSConditional},
		API{Pkg: pkgGCS, Recv: "ObjectHandle", Name: "Update", Role: RoleWrite, System: GCS, Fence: GCSConditional},
		API{Pkg: pkgGCS, Recv: "ObjectHandle", Name: "Delete", Role: RoleWrite, System: GCS, Fence: GCSConditional},
		API{Pkg: pkgGCS, Recv: "Copier", Name: "Run", Role: RoleWrite, System: GCS, Fence: GCSConditional},
		API{Pkg: pkgGCS, Recv: "Composer", Name: "Run", Role: RoleWrite, System: GCS, Fence: GCSConditional},
	)

	// DynamoDB (aws-sdk-go-v2, and v1 with its *WithContext forms): a
	// single-item write may carry a condition; a batch cannot.
	for _, name := range []string{"PutItem", "UpdateItem", "DeleteItem"} {
		add(API{Pkg: pkgDynamo, Recv: "Client", Name: name, Role: RoleWrite, System: DynamoDB, Fence: DynamoConditional, Arg: 1},
			API{Pkg: pkgDynamoV1, Recv: "DynamoDB", Name: name, Role: RoleWrite, System: DynamoDB, Fence: DynamoConditional, Arg: 0},
			API{Pkg: pkgDynamoV1, Recv: "DynamoDB", Name: name + "WithContext", Role: RoleWrite, System: DynamoDB, Fence: DynamoConditional, Arg: 1})
	}
	add(API{Pkg: pkgDynamo, Recv: "Client", Name: "BatchWriteItem", Role: RoleWrite, System: DynamoDB},
		API{Pkg: pkgDynamoV1, Recv: "DynamoDB", Name: "BatchWriteItem", Role: RoleWrite, System: DynamoDB},
		API{Pkg: pkgDynamoV1, Recv: "DynamoDB", Name: "BatchWriteItemWithContext", Role: RoleWrite, System: DynamoDB})

	// Elasticsearch through olivere/elastic: a service's Do sends one
	// write, a bulk's Do the requests added to it, and a bulk processor
	// sends what is added to it in the background (its Add is where the
	// application's code writes). Index administration (CreateIndex,
	// PutMapping) is configuration, not a write a fence protects.
	for _, recv := range []string{"IndexService", "UpdateService", "DeleteService", "BulkService"} {
		add(API{Pkg: pkgElastic, Recv: recv, Name: "Do", Role: RoleWrite, System: Elastic, Fence: ESConditional})
	}
	add(API{Pkg: pkgElastic, Recv: "BulkProcessor", Name: "Add", Role: RoleWrite, System: Elastic, Fence: ESConditional})
	for _, recv := range []string{"UpdateByQueryService", "DeleteByQueryService"} {
		add(API{Pkg: pkgElastic, Recv: recv, Name: "Do", Role: RoleWrite, System: Elastic})
	}

	// Elasticsearch through go-elasticsearch: a request struct's Do, the
	// client's API functions, called through the fields that hold them
	// (es.Index(...)), and the bulk indexer's Add (esapi.go).
	for _, name := range []string{"Index", "Create", "Update", "Delete"} {
		add(API{Pkg: pkgESAPI, Recv: name + "Request", Name: "Do", Role: RoleWrite, System: Elastic, Fence: ESAPIConditional},
			API{Pkg: pkgESAPI, Recv: "API", Name: name, Field: true, Role: RoleWrite, System: Elastic, Fence: ESAPIConditional})
	}
	for _, name := range []string{"UpdateByQuery", "DeleteByQuery"} {
		add(API{Pkg: pkgESAPI, Recv: name + "Request", Name: "Do", Role: RoleWrite, System: Elastic},
			API{Pkg: pkgESAPI, Recv: "API", Name: name, Field: true, Role: RoleWrite, System: Elastic})
	}
	add(API{Pkg: pkgESUtil, Recv: "BulkIndexer", Name: "Add", Role: RoleWrite, System: Elastic, Fence: ESAPIConditional})

	// NATS JetStream's key-value buckets, through the KeyValue interface
	// of nats.go and of its newer jetstream package: Update is a
	// compare-and-set on the revision the caller read, Create fails on a
	// key that exists, and a delete or purge may pass LastRevision.
	for _, pkg := range []string{pkgNATS, pkgNATSJS} {
		add(API{Pkg: pkg, Recv: "KeyValue", Name: "Put", Role: RoleWrite, System: NATSKV},
			API{Pkg: pkg, Recv: "KeyValue", Name: "PutString", Role: RoleWrite, System: NATSKV},
			API{Pkg: pkg, Recv: "KeyValue", Name: "Create", Role: RoleFenced, System: NATSKV},
			API{Pkg: pkg, Recv: "KeyValue", Name: "Update", Role: RoleFenced, System: NATSKV},
			API{Pkg: pkg, Recv: "KeyValue", Name: "Delete", Role: RoleWrite, System: NATSKV, Fence: NATSLastRevision},
			API{Pkg: pkg, Recv: "KeyValue", Name: "Purge", Role: RoleWrite, System: NATSKV, Fence: NATSLastRevision})
	}

	// MinIO (minio-go v6 and v7): uploads may carry an ETag condition
	// (v7); the other writes cannot.
	for _, name := range []string{"PutObject", "FPutObject", "PutObjectWithContext", "FPutObjectWithContext"} {
		add(API{Pkg: pkgMinio, Recv: "Client", Name: name, Role: RoleWrite, System: MinIO, Fence: MinioConditional})
	}
	for _, name := range []string{"CopyObject", "ComposeObject", "RemoveObject", "RemoveObjects", "RemoveObjectsWithContext",
		"PutObjectTagging", "RemoveObjectTagging", "PutObjectRetention", "PutObjectLegalHold"} {
		add(API{Pkg: pkgMinio, Recv: "Client", Name: name, Role: RoleWrite, System: MinIO})
	}

	// Values that are never tokens, whatever library they come with.
	const uuidNote = "a UUID is random or clock-based, not issued in lease order"
	// Random UUIDs (version 4, and version 7's 74 random bits after the
	// time) are also fresh identifiers; time-based ones (1, 6) are not
	// counted as such.
	fresh := func(name string) Role {
		if name == "NewUUID" || name == "NewV1" || name == "NewV6" || name == "Must" {
			return RoleNotToken
		}
		return RoleNotToken | RoleFreshID
	}
	for _, name := range []string{"New", "NewString", "NewRandom", "NewUUID", "Must", "NewV6", "NewV7"} {
		add(API{Pkg: pkgUUID, Name: name, Role: fresh(name), Note: uuidNote})
	}
	for _, name := range []string{"NewV1", "NewV4", "NewV6", "NewV7", "Must"} {
		add(API{Pkg: pkgGofrsUUID, Name: name, Role: fresh(name), Note: uuidNote})
	}
	// pborman/uuid, google/uuid's predecessor (and since v1.2 a wrapper of
	// it): New is a random UUID's string, NewRandom a random UUID and
	// NewUUID a time-based one. HashiCorp's go-uuid formats 16 random bytes
	// of crypto/rand, or of the reader it is given.
	for _, name := range []string{"New", "NewRandom", "NewUUID"} {
		add(API{Pkg: pkgPbormanUUID, Name: name, Role: fresh(name), Note: uuidNote})
	}
	add(
		API{Pkg: pkgHashiUUID, Name: "GenerateUUID", Role: RoleNotToken | RoleFreshID, Note: uuidNote},
		API{Pkg: pkgHashiUUID, Name: "GenerateUUIDWithReader", Role: RoleNotToken | RoleFreshID, Seeded: true, Arg: 0, Note: uuidNote},
	)
	// Other unique IDs. An xid is a second, the host, the process and a
	// counter that starts at random: unique, not random, and ordered only
	// within one process. A KSUID is a second and 128 random bits (unless
	// ksuid.SetRand swapped the source). A ULID is a millisecond and 80 bits
	// of its entropy source: Make reads a per-process source seeded from the
	// clock and incremented within a millisecond, New and MustNew the one
	// they are given, which must be random for the ULID to be fresh (nil
	// gives none; a math/rand seeded with a constant repeats in every
	// process). Monotonic increments within a millisecond the random value
	// it first drew, so two processes still draw apart.
	add(API{Pkg: pkgXID, Name: "New", Role: RoleNotToken | RoleFreshID,
		Note: "an xid is unique (time, host, process, counter), not issued in lease order"})
	for _, name := range []string{"New", "NewRandom", "NewRandomWithTime"} {
		add(API{Pkg: pkgKSUID, Name: name, Role: RoleNotToken | RoleFreshID, Note: "a KSUID is random, not issued in lease order"})
	}
	const ulidNote = "a ULID is a clock reading and random bits, not issued in lease order"
	add(
		API{Pkg: pkgULID, Name: "Make", Role: RoleNotToken | RoleFreshID, Note: ulidNote},
		API{Pkg: pkgULID, Name: "New", Role: RoleNotToken | RoleFreshID, Seeded: true, Arg: 1, Note: ulidNote},
		API{Pkg: pkgULID, Name: "MustNew", Role: RoleNotToken | RoleFreshID, Seeded: true, Arg: 1, Note: ulidNote},
		API{Pkg: pkgULID, Name: "DefaultEntropy", Role: RoleEntropy},
		API{Pkg: pkgULID, Name: "Monotonic", Role: RoleEntropy, Seeded: true, Arg: 0},
		API{Pkg: pkgCryptoRand, Name: "Reader", Var: true, Role: RoleEntropy},
	)
	// Snowflake IDs are a clock reading, a node number and a counter:
	// ordered by the clocks of the processes that draw them, not by lease.
	// They are not counted as fresh: their uniqueness rests on a node
	// number the application configures (Sonyflake's Settings.MachineID,
	// snowflake.NewNode's argument), which replicas often share.
	const snowflakeNote = "a snowflake ID is a clock reading, a node number and a counter, not issued in lease order"
	add(
		API{Pkg: pkgSonyflake, Recv: "Sonyflake", Name: "NextID", Role: RoleNotToken, Note: snowflakeNote},
		API{Pkg: pkgSnowflake, Recv: "Node", Name: "Generate", Role: RoleNotToken, Note: snowflakeNote},
	)
	for _, name := range []string{"Now", "Since", "Until"} {
		add(API{Pkg: pkgTime, Name: name, Role: RoleNotToken,
			Note: "clocks of different holders disagree and a paused holder stamps its write with the time it read before the pause"})
	}
	for _, name := range []string{"Int", "Int63", "Int63n", "Int31", "Int31n", "Intn", "Uint32", "Uint64", "Int64", "Float64", "N", "IntN", "Int64N"} {
		add(API{Pkg: pkgMathRand, Name: name, Role: RoleNotToken, Note: "a random number is not ordered by lease"})
		if name != "N" { // a generic func of math/rand/v2, not a method
			add(API{Pkg: pkgMathRand, Recv: "Rand", Name: name, Role: RoleNotToken, Note: "a random number is not ordered by lease"})
		}
	}
	add(
		API{Pkg: pkgCryptoRand, Name: "Int", Role: RoleNotToken, Note: "a random number is not ordered by lease"},
		API{Pkg: pkgCryptoRand, Name: "Text", Role: RoleNotToken | RoleFreshID, Note: "a random string is not ordered by lease"},
		API{Pkg: pkgOS, Name: "Getpid", Role: RoleNotToken, Note: "a process ID is reused and unrelated to lease order"},
		API{Pkg: pkgOS, Name: "Hostname", Role: RoleNotToken, Note: "a host name is not ordered"},
	)
	add(builderCatalog()...)
	add(mongoCatalog()...)
	return c
}

// etcdOpRole returns the role of running, with KV.Do, an Op that the etcd
// client's constructor name makes, and whether the constructor is known:
// none for OpGet, a read; a write for a put, a delete and a transaction,
// as the Put, Delete and Txn they stand for. An Op from anywhere else is
// a write (etcdops.go).
func etcdOpRole(name string) (Role, bool) {
	switch name {
	case "OpGet":
		return 0, true
	case "OpPut", "OpDelete", "OpTxn":
		return RoleWrite, true
	}
	return RoleWrite, false
}

// clientPaths lists the packages that hand out Kubernetes clients, whose
// writes the catalog recognises by signature (client-go's clientset has a
// typed client per API group: kubeTypedUpdate): importing one makes a
// package relevant when its syntax calls an Update (callsKubeUpdate), not
// otherwise, since most of the packages that import a clientset (client-go's
// own informers, an application's wiring) only pass it on.
func clientPaths() []string {
	return []string{pkgKubeClient, pkgKubeCoreV1, "k8s.io/client-go/dynamic", pkgCtrlClient}
}

// redisWrites lists the go-redis commands that change data, under the
// names of every version (v9 renamed SetEX to SetEx). A pop or move is a
// write: it takes the element out (ZPOPMIN then a ZADD back is a
// read-modify-write of the set). The blocking pops (BLPOP, BZPOPMIN) are
// left out, as from redisWriteCommands: a consumer waiting on a queue.
func redisWrites() []string {
	return []string{
		"Set", "SetXX", "SetArgs", "MSet", "MSetNX", "GetSet", "GetDel", "Append", "Incr", "IncrBy",
		"IncrByFloat", "Decr", "DecrBy", "Del", "Unlink", "Expire", "PExpire", "ExpireAt", "PExpireAt",
		"Persist", "Rename", "RenameNX", "HSet", "HMSet", "HSetNX", "HDel", "HIncrBy", "HIncrByFloat",
		"LPush", "RPush", "LPop", "RPop", "LSet", "LRem", "LTrim", "SAdd", "SRem", "SPop", "SMove",
		"ZAdd", "ZAddArgs", "ZRem", "ZIncrBy", "ZRemRangeByScore", "ZRemRangeByRank", "XDel",
		"XTrimMaxLen", "XTrimMinID", "SetBit", "PFAdd", "FlushDB", "FlushAll", "SetEx", "SetEX",
		"SetRange", "LPushX", "RPushX", "LInsert", "LInsertBefore", "LInsertAfter", "LPopCount",
		"RPopCount", "LMPop", "RPopLPush", "LMove", "SPopN", "SInterStore", "SUnionStore", "SDiffStore",
		"ZPopMin", "ZPopMax", "ZMPop", "ZRemRangeByLex", "ZUnionStore", "ZInterStore", "ZDiffStore",
		"ZRangeStore", "GeoAdd", "PFMerge", "BitOpAnd", "BitOpOr", "BitOpXor", "BitOpNot", "Copy",
		"Restore", "RestoreReplace", "SlaveOf",
	}
}

// redisRefreshes lists the go-redis commands among redisWrites that set a
// key's value or TTL again: what every caller of a marker does to its key
// (redismarkers.go). A SetArgs with Mode NX is a SET NX, not one of them.
func redisRefreshes() []string {
	return []string{
		"Expire", "PExpire", "ExpireAt", "PExpireAt", "Persist",
		"Set", "SetEx", "SetEX", "SetArgs", "SetXX", "GetSet",
	}
}

// redisRefreshCommands lists redisRefreshes' commands as a client that
// names the command (redigo's Do) spells them, and PSETEX (go-redis has
// no method for it: its Set sends PX). A SET with NX is a SET NX, not one
// of them.
func redisRefreshCommands() []string {
	return []string{"EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "PERSIST", "SET", "SETEX", "PSETEX", "GETSET"}
}

// redisWriteCommands lists the Redis commands that change data, as a
// client that names the command (redigo's Do, rueidis's builder) spells
// them: redisWrites' commands and the rest of their families, and
// RedisJSON's.
func redisWriteCommands() []string {
	return []string{
		"SET", "SETEX", "PSETEX", "SETRANGE", "MSET", "MSETNX", "GETSET", "GETDEL", "GETEX", "APPEND",
		"INCR", "INCRBY", "INCRBYFLOAT", "DECR", "DECRBY", "DEL", "UNLINK", "EXPIRE", "PEXPIRE",
		"EXPIREAT", "PEXPIREAT", "PERSIST", "RENAME", "RENAMENX", "COPY", "RESTORE", "HSET", "HMSET",
		"HSETNX", "HDEL", "HINCRBY", "HINCRBYFLOAT", "LPUSH", "RPUSH", "LPUSHX", "RPUSHX", "LPOP",
		"RPOP", "LSET", "LREM", "LTRIM", "LINSERT", "RPOPLPUSH", "LMOVE", "SADD", "SREM", "SPOP",
		"SMOVE", "SINTERSTORE", "SUNIONSTORE", "SDIFFSTORE", "ZADD", "ZREM", "ZINCRBY",
		"ZREMRANGEBYSCORE", "ZREMRANGEBYRANK", "ZREMRANGEBYLEX", "ZPOPMIN", "ZPOPMAX", "ZUNIONSTORE",
		"ZINTERSTORE", "ZDIFFSTORE", "ZRANGESTORE", "ZMPOP", "LMPOP", "XDEL", "XTRIM", "SETBIT",
		"BITOP", "PFADD", "PFMERGE", "GEOADD", "FLUSHDB", "FLUSHALL", "SLAVEOF", "REPLICAOF",
		// RedisJSON
		"JSON.SET", "JSON.MSET", "JSON.MERGE", "JSON.DEL", "JSON.FORGET", "JSON.CLEAR", "JSON.TOGGLE",
		"JSON.NUMINCRBY", "JSON.NUMMULTBY", "JSON.STRAPPEND", "JSON.ARRAPPEND", "JSON.ARRINSERT",
		"JSON.ARRPOP", "JSON.ARRTRIM",
	}
}

// redisReplicationCommand reports whether cmd (as redisCommand names it)
// points a server's replication at another master: a write to the
// topology, not to a key, which no condition can fence.
func redisReplicationCommand(cmd string) bool {
	return cmd == "SLAVEOF" || cmd == "REPLICAOF"
}

// leaseRoles are the roles of the rows that take or grant a lease.
const leaseRoles = RoleAcquire | RoleTryAcquire | RoleLocker | RoleElect | RoleGrant

// PackageRoles returns the roles of the catalog rows of the package imported
// as path (CanonicalPath applied), or 0 when the catalog names none of its
// APIs. Standalone fencelint reads it to find, among a program's library
// dependencies, those that wrap a lock library or a store.
func PackageRoles(path string) Role {
	p := CanonicalPath(path)
	var roles Role
	for _, a := range catalog() {
		if a.Pkg == p {
			roles |= a.Role
		}
	}
	return roles
}

// Writes reports whether roles include writing a store.
func (r Role) Writes() bool { return r&(RoleWrite|RoleFenced) != 0 }

// LockLibrary reports whether roles are a lock library's: they take or
// grant leases, or run callbacks under one, and write no store (redsync,
// bsm/redislock, gocron's electors, client-go's leader election; not a store
// client that also locks, such as go-redis with SETNX or Consul's api).
func (r Role) LockLibrary() bool { return r&(leaseRoles|RoleCallback) != 0 && !r.Writes() }

// Catalog returns a copy of every catalog row, for documentation and for
// the conformance test that checks each row against the real module.
func Catalog() []API { return catalog() }

// A Spawner is a library function that runs the function it is handed on
// its caller's behalf: in a goroutine of its own (errgroup's Go, wait.Group's
// Start), again and again until a stop signal (wait.Until, wait.Poll*), or
// until it succeeds (retry libraries: backoff.Retry, failsafe.Get).
// Work handed to one inside a lease region runs under that lease, like the
// work a go statement starts there: stopping on the lease's lost signal
// fences nothing, as a holder paused past its lease writes before it next
// looks at that signal.
type Spawner struct {
	Pkg       string // import path, major versions removed
	Recv      string // receiver type name without '*'; "" for a package func
	Name      string
	Arg       int      // the function argument (receiver excluded)
	Goroutine bool     // runs it in a goroutine the caller does not wait for by this call
	Handler   []string // Arg is an event handler: the funcs in its struct literal's fields run, or these methods of its type
	// Retry: calls it again until it returns no error or the policy gives
	// up, and returns what the last call returned. The function is the
	// call's first func argument, wherever the version puts it
	// (cenkalti/backoff's Retry takes it first in v4, after a context in
	// v5; Arg is v4's); a lock it takes is held after the call when the
	// call returns no error (retriedAcquire).
	Retry bool
}

// Import paths of the spawners.
const (
	pkgWait     = "k8s.io/apimachinery/pkg/util/wait"
	pkgErrgroup = "golang.org/x/sync/errgroup"
	pkgConc     = "github.com/sourcegraph/conc"
	pkgConcPool = "github.com/sourcegraph/conc/pool"
	pkgCache    = "k8s.io/client-go/tools/cache"
	pkgFailsafe = "github.com/failsafe-go/failsafe-go"
	pkgBackoff  = "github.com/cenkalti/backoff"
	pkgRetryGo  = "github.com/avast/retry-go"
	pkgGoRetry  = "github.com/sethvargo/go-retry"
)

// spawners lists every Spawner.
func spawners() []Spawner {
	s := []Spawner{
		{Pkg: pkgErrgroup, Recv: "Group", Name: "Go", Goroutine: true},
		{Pkg: pkgErrgroup, Recv: "Group", Name: "TryGo", Goroutine: true},
		{Pkg: "sync", Recv: "WaitGroup", Name: "Go", Goroutine: true},
		{Pkg: pkgWait, Recv: "Group", Name: "Start", Goroutine: true},
		{Pkg: pkgWait, Recv: "Group", Name: "StartWithChannel", Arg: 1, Goroutine: true},
		{Pkg: pkgWait, Recv: "Group", Name: "StartWithContext", Arg: 1, Goroutine: true},
		{Pkg: pkgConc, Recv: "WaitGroup", Name: "Go", Goroutine: true},
	}
	// client-go informers call a handler registered with them, on their
	// own goroutine, for every event until they stop.
	for _, name := range []string{"AddEventHandler", "AddEventHandlerWithResyncPeriod", "AddEventHandlerWithOptions"} {
		s = append(s, Spawner{Pkg: pkgCache, Recv: "SharedInformer", Name: name, Goroutine: true,
			Handler: []string{"OnAdd", "OnUpdate", "OnDelete"}})
	}
	for _, pool := range []string{"Pool", "ErrorPool", "ContextPool", "ResultPool", "ResultErrorPool", "ResultContextPool"} {
		s = append(s, Spawner{Pkg: pkgConcPool, Recv: pool, Name: "Go", Goroutine: true})
	}
	// k8s.io/apimachinery's wait loops call the function in the caller's
	// goroutine until it stops them.
	for name, arg := range map[string]int{
		"Until": 0, "UntilWithContext": 1, "NonSlidingUntil": 0, "NonSlidingUntilWithContext": 1,
		"JitterUntil": 0, "JitterUntilWithContext": 1, "BackoffUntil": 0, "BackoffUntilWithContext": 1,
		"Forever": 0, "PollUntil": 1, "PollUntilWithContext": 2, "PollImmediateUntil": 1,
		"PollImmediateUntilWithContext": 2, "PollUntilContextCancel": 3, "PollUntilContextTimeout": 4,
		"Poll": 2, "PollWithContext": 3, "PollImmediate": 2, "PollImmediateWithContext": 3,
		"PollInfinite": 1, "PollInfiniteWithContext": 2, "PollImmediateInfinite": 1,
		"PollImmediateInfiniteWithContext": 2, "ExponentialBackoff": 1, "ExponentialBackoffWithContext": 2,
	} {
		s = append(s, Spawner{Pkg: pkgWait, Name: name, Arg: arg})
	}
	// Retry libraries, which applications wrap a try-lock in until it
	// succeeds: failsafe.Get(func() (any, error) { return tryLock(ctx, key) },
	// policy). Their async forms are left out: they return before the
	// function has run.
	for _, name := range []string{"Run", "RunWithExecution", "Get", "GetWithExecution"} {
		s = append(s, Spawner{Pkg: pkgFailsafe, Name: name, Retry: true},
			Spawner{Pkg: pkgFailsafe, Recv: "Executor", Name: name, Retry: true})
	}
	for _, name := range []string{"Retry", "RetryNotify", "RetryNotifyWithTimer", "RetryWithData", "RetryNotifyWithData", "RetryNotifyWithTimerAndData"} {
		s = append(s, Spawner{Pkg: pkgBackoff, Name: name, Retry: true})
	}
	s = append(s, Spawner{Pkg: pkgRetryGo, Name: "Do", Retry: true}, Spawner{Pkg: pkgRetryGo, Name: "DoWithData", Retry: true},
		Spawner{Pkg: pkgGoRetry, Name: "Do", Arg: 2, Retry: true}, Spawner{Pkg: pkgGoRetry, Name: "DoValue", Arg: 2, Retry: true})
	slices.SortFunc(s, func(x, y Spawner) int {
		return cmp.Or(strings.Compare(x.Pkg, y.Pkg), strings.Compare(x.Recv, y.Recv), strings.Compare(x.Name, y.Name))
	})
	return s
}

// Spawners returns every Spawner, for documentation and the conformance
// test that checks each against the real module.
func Spawners() []Spawner { return spawners() }

// What fencelint advises per lock library and store: the checks print
// these, so they live with the catalog rather than in each check.

// FenceAdvice says how to fence a write to the store s, for diagnostics.
func (s System) FenceAdvice() string {
	switch s {
	case SQL, Postgres, MySQL:
		return "fence it: add \"AND fence < $token\" to the WHERE clause with the lease's token and check RowsAffected"
	case Etcd:
		return "fence it: commit it in Txn(ctx).If(mutex.IsOwner()).Then(clientv3.OpPut(...)) and check Succeeded"
	case Redis:
		return "fence it: write with a Lua script that compares a stored fence with the lease's token, or in WATCH/MULTI on the fence key"
	case S3:
		return "fence it: set IfMatch to the ETag you read, or IfNoneMatch: \"*\" to create only"
	case GCS:
		return "fence it: write through obj.If(storage.Conditions{GenerationMatch: gen})"
	case Consul:
		return "fence it: use KV.CAS with the pair's ModifyIndex, or a Txn with a check-session op on the lock key"
	case ZooKeeper:
		return "fence it: pass the node's expected version, or use Multi with a CheckVersionRequest on your lock node"
	case MongoDB:
		return mongoAdvice
	case DynamoDB:
		return "fence it: add a ConditionExpression that compares the item's fence with the lease's token (#fence < :token), set the fence to the token, and abort on ConditionalCheckFailedException"
	case NATSKV:
		return "fence it: write with kv.Update(key, value, rev) using the revision you read (or Create to make it), and delete with LastRevision(rev)"
	case Elastic:
		return "fence it: index with the lease's token as an external version (Version(token).VersionType(\"external\")), or with IfSeqNo/IfPrimaryTerm of the document you read"
	case MinIO:
		return "fence it: upload with opts.SetMatchETag(etag) of the object you read, or opts.SetMatchETagExcept(\"*\") to create only"
	case KubeAPI:
		return "fence it: update the object you read (a Get or lister copy keeps its resourceVersion, and the API server refuses the update once another holder wrote), or set ResourceVersion to the one read with the state your change is computed from, not one read just before the update"
	}
	return "fence it: make the store compare the lease's fencing token before it applies the write"
}

// foreignLockAdvice says how to fence a write to s made under a lock of
// another system, where s's own advice names a check of s's own lock (an
// etcd Mutex's IsOwner, a Consul session, a ZooKeeper lock node) that a
// Redis or SQL lock does not have; "" where s's advice fits any lock.
func (s System) foreignLockAdvice() string {
	switch s {
	case Etcd:
		return "fence it: keep the lease's fencing token in a key and commit in " +
			"Txn(ctx).If(clientv3.Compare(clientv3.Value(fenceKey), \"<\", token)).Then(...) (a fixed-width token), and check Succeeded"
	case Consul:
		return "fence it: use KV.CAS with the ModifyIndex of the pair you read, and abort when it returns false"
	case ZooKeeper:
		return "fence it: pass the node's expected version from the Stat you read, and abort on zk.ErrBadVersion"
	}
	return ""
}

// A Claim says how a lease was taken, where that changes how a write made
// under it is fenced: a library's lock offers its own ownership check
// (etcd's Mutex.IsOwner), a lock taken by hand offers none.
type Claim uint8

const (
	LibraryClaim      Claim = iota // the library's lock, session or callback
	EtcdTxnClaim                   // an etcd key put WithLease by a Txn only if absent (etcdtxnlock.go)
	EtcdElectionClaim              // an etcd Election won by Campaign: no Mutex, its key and revision are the check
	EtcdLeaseClaim                 // a bare etcd lease (Grant, TimeToLive): a key attached to it is the check
)

// FenceAdvice says how to fence a write to the store s made under a lease
// taken as c, when that is not what s.FenceAdvice says; "" otherwise. A
// hand-rolled etcd lock is its key: the revision its claim created the key
// at (the claim's response header), or the lease the key is bound to,
// tells whether the key is still this holder's.
func (c Claim) FenceAdvice(s System) string {
	if c == EtcdElectionClaim && s == Etcd {
		return "fence it: commit it in Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(election.Key()), \"=\", election.Rev())).Then(...) " +
			"and check Succeeded"
	}
	if c == EtcdLeaseClaim && s == Etcd {
		return "fence it: put a key WithLease(leaseID) when you take the lease and commit the write in " +
			"Txn(ctx).If(clientv3.Compare(clientv3.LeaseValue(key), \"=\", leaseID)).Then(...), and check Succeeded"
	}
	if c == EtcdTxnClaim && s == Etcd {
		return "fence it: commit it in a Txn that compares the lock key with your claim " +
			"(If(clientv3.Compare(clientv3.CreateRevision(lockKey), \"=\", claimResp.Header.Revision)), " +
			"or LeaseValue(lockKey) with your lease ID) and check Succeeded"
	}
	return ""
}

// HearLoss says how to make the work hear that a lease of s is lost, for
// a lost signal that reaches nobody (detachedrenewal).
func (s System) HearLoss() string {
	switch s {
	case Etcd:
		return "derive the work's context from session.Ctx() (or select on session.Done())"
	case ZooKeeper:
		return "cancel the work's context when an event says zk.StateExpired (or pass zk.WithEventCallback)"
	case Consul:
		return "select on it in the work and stop when it closes"
	case Kubernetes:
		return "run the work on the callback's ctx"
	case Rueidis:
		return "run the work on the ctx the Locker returns (it is canceled when the lock is lost)"
	}
	return "cancel the work's context or close a channel it selects on when the lease is lost"
}

// HearRenewals says what to do with the channel of keep-alive responses a
// lease of s hands out (etcd's KeepAlive), when it is discarded or when
// nothing acts on its closing.
func (s System) HearRenewals(discarded bool) string {
	switch {
	case discarded:
		return "keep the channel, drain it, and cancel the work's context when it closes"
	case s == Etcd:
		return "cancel the work's context when the channel closes, or use a concurrency.Session and its Ctx()"
	}
	return "cancel the work's context when the channel closes"
}

// TokenSource names a real fencing token for a lock library: one issued
// with the grant.
func (s System) TokenSource() string {
	switch s {
	case Etcd:
		return "the revision the lock was acquired at, m.Header().Revision (e.Rev() for an Election)"
	case Redsync, Redislock, GoZero, Rueidis, Redis:
		return "a token issued with the grant: a Lua script that sets the lock key and INCRs a fence key in one step"
	case Consul:
		return "the lock key's ModifyIndex from a read whose Session is compared with yours, " +
			"or fence the write with a Txn that checks the lock key's session"
	case ZooKeeper:
		return "the Czxid of your own lock node (Stat.Czxid)"
	case Kubernetes:
		return "a store that issues a token with the lease (leader election has none): " +
			"a PostgreSQL lease row whose acquiring UPDATE ... RETURNING hands out token + 1"
	case Raft:
		return "r.CurrentTerm() captured when leadership was won, or apply the write through r.Apply"
	}
	return "a token issued with the grant: a lease row whose acquiring UPDATE ... RETURNING hands out token + 1, " +
		"or nextval in the statement that takes the lock"
}

// A Fork is another import path under which a catalogued package's API is
// published: a fork, or the path older releases used. Calls into it mean
// what the catalog's rows for Pkg say. (Major-version elements such as /v8
// are removed before any lookup, so github.com/go-redsync/redsync/v3 needs
// no entry.)
type Fork struct {
	Path string // the import path, major-version elements removed
	Pkg  string // the catalogued path whose rows apply
	What string // which fork or releases, for the README
}

// forks lists every Fork. The conformance suite compiles a case against
// each one the Go module proxy serves.
func forks() []Fork {
	return []Fork{
		{"github.com/samuel/go-zookeeper/zk", pkgZK, "samuel/go-zookeeper, the original of go-zookeeper/zk"},
		{"github.com/linkedin/go-zk", pkgZK, "LinkedIn's fork of go-zookeeper"},
		{"go.etcd.io/etcd/clientv3", pkgEtcd, "etcd 3.4 (go.etcd.io/etcd before the client/v3 module)"},
		{"go.etcd.io/etcd/clientv3/concurrency", pkgEtcdConc, "etcd 3.4"},
		{"go.etcd.io/etcd/etcdserver/etcdserverpb", pkgEtcdPB, "etcd 3.4"},
		{"go.etcd.io/etcd/mvcc/mvccpb", pkgEtcdMVCC, "etcd 3.4"},
		{"github.com/coreos/etcd/clientv3", pkgEtcd, "etcd 3.3 and older"},
		{"github.com/coreos/etcd/clientv3/concurrency", pkgEtcdConc, "etcd 3.3 and older"},
		{"github.com/coreos/etcd/etcdserver/etcdserverpb", pkgEtcdPB, "etcd 3.3 and older"},
		{"github.com/coreos/etcd/mvcc/mvccpb", pkgEtcdMVCC, "etcd 3.3 and older"},
		{"github.com/go-redis/redis", pkgGoRedis, "go-redis v6 to v8, before the move to github.com/redis"},
		{"gopkg.in/redis.v5", pkgGoRedis, "go-redis v5 (gopkg.in)"},
		{"gopkg.in/redis.v6", pkgGoRedis, "go-redis v6 (gopkg.in)"},
		{"github.com/muroq/redislock", pkgRedislock, "a fork of bsm/redislock whose Obtain takes a wait timeout before the TTL (projecteru2/core)"},
		{"gopkg.in/redsync.v1", pkgRedsync, "redsync v1 (gopkg.in)"},
		{"github.com/garyburd/redigo/redis", pkgRedigo, "garyburd/redigo, the original path of gomodule/redigo (redsync.v1's pools)"},
		{"github.com/jinzhu/gorm", pkgGorm, "GORM v1, before the move to gorm.io"},
		{"github.com/satori/go.uuid", pkgGofrsUUID, "satori/go.uuid, the original of gofrs/uuid"},
		{"github.com/volatiletech/sqlboiler/queries", pkgBoilerQueries, "sqlboiler under its former path, before the move to github.com/aarondl"},
		{"github.com/mongodb/mongo-go-driver/mongo", pkgMongo, "mongo-go-driver before v1 (v0.x), before the move to go.mongodb.org"},
	}
}

// Forks returns every Fork, for documentation and the conformance suite.
func Forks() []Fork { return forks() }

// CanonicalPath returns the catalogued import path whose rows apply to
// path as imported: with vendoring and major-version elements removed, and
// a fork mapped to the package it forks.
func CanonicalPath(path string) string {
	p := normalizePath(path)
	for _, f := range forks() {
		if f.Path == p {
			return f.Pkg
		}
	}
	return p
}

// An errorKind says what an error constructor of an error package returns,
// for reading a return as a failure: a helper that lets go of its lock only
// where it fails still returns holding it whenever it succeeds.
type errorKind uint8

const (
	notErrorFunc errorKind = iota
	alwaysError            // never nil: New, Errorf
	wrapsError             // nil exactly when the error it wraps, its first argument, is nil
)

// errorFunc says what the function name of the package at path returns:
// github.com/pkg/errors, and github.com/cockroachdb/errors, which keeps its
// API. (The standard library's errors.New and fmt.Errorf are known where
// returns are read.)
func errorFunc(path, name string) errorKind {
	switch normalizePath(path) {
	case "github.com/pkg/errors", "github.com/cockroachdb/errors":
		switch name {
		case "New", "Newf", "Errorf":
			return alwaysError
		case "Wrap", "Wrapf", "WithStack", "WithMessage", "WithMessagef":
			return wrapsError
		}
	}
	return notErrorFunc
}

// s3v1Advice says how to fence an S3 write made with aws-sdk-go v1, which
// cannot send a condition with one.
const s3v1Advice = "fence it: aws-sdk-go v1 sends no condition with a write; make it with aws-sdk-go-v2's PutObject and set IfMatch to the ETag you read, or IfNoneMatch: \"*\" to create only"

// SQLite runs in the process that opens it, on a file of its node: a
// program whose only SQL drivers are SQLite's writes no SQL database that
// another holder writes (localsql.go). sqliteDrivers lists those drivers,
// sqlServerDrivers the drivers of databases other processes share (a
// server, or a remote SQLite such as Turso's libSQL or rqlite), by import
// path with any major-version element removed.
func sqliteDrivers() []string {
	return []string{
		"github.com/mattn/go-sqlite3", "modernc.org/sqlite", "gorm.io/driver/sqlite",
		"github.com/glebarez/sqlite", "github.com/glebarez/go-sqlite", "github.com/ncruces/go-sqlite3",
		"zombiezen.com/go/sqlite", "crawshaw.io/sqlite",
	}
}

func sqlServerDrivers() []string {
	return []string{
		"github.com/lib/pq", "github.com/jackc/pgx", "github.com/jackc/pgconn", "github.com/go-pg/pg",
		"github.com/uptrace/bun/driver/pgdriver", "github.com/go-sql-driver/mysql", "github.com/ziutek/mymysql",
		"gorm.io/driver/postgres", "gorm.io/driver/mysql", "gorm.io/driver/sqlserver", "gorm.io/driver/clickhouse",
		"github.com/denisenkom/go-mssqldb", "github.com/microsoft/go-mssqldb", "github.com/godror/godror",
		"github.com/sijms/go-ora", "github.com/ClickHouse/clickhouse-go", "github.com/mailru/go-clickhouse",
		"github.com/snowflakedb/gosnowflake", "github.com/trinodb/trino-go-client", "github.com/prestodb/presto-go-client",
		"github.com/databricks/databricks-sql-go", "github.com/vertica/vertica-sql-go", "github.com/nakagami/firebirdsql",
		"github.com/googleapis/go-sql-spanner", "github.com/ydb-platform/ydb-go-sdk",
		"github.com/tursodatabase/libsql-client-go", "github.com/tursodatabase/go-libsql", "github.com/rqlite/gorqlite",
		"github.com/yugabyte/pgx", "github.com/go-mysql-org/go-mysql", "github.com/siddontang/go-mysql",
		"github.com/alexbrainman/odbc", "github.com/ibmdb/go_ibm_db", "github.com/mattn/go-oci8", "github.com/thda/tds",
		"github.com/minus5/gofreetds",
	}
}
