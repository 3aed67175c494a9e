package lease

import "testing"

func TestNormalizePath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"github.com/redis/go-redis/v9", "github.com/redis/go-redis"},
		{"go.etcd.io/etcd/client/v3/concurrency", "go.etcd.io/etcd/client/concurrency"},
		{"github.com/jackc/pgx/v5/pgxpool", "github.com/jackc/pgx/pgxpool"},
		{"github.com/aws/aws-sdk-go-v2/service/s3", "github.com/aws/aws-sdk-go-v2/service/s3"},
		{"example.com/app/vendor/github.com/go-redsync/redsync/v4", "github.com/go-redsync/redsync"},
		{"github.com/acme/v1/tools", "github.com/acme/v1/tools"}, // v1 is never a version element
		{"database/sql", "database/sql"},
	} {
		if got := normalizePath(tc.in); got != tc.want {
			t.Errorf("normalizePath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestCatalogHasNoDuplicates guards the index: two rows with one key would
// leave one of them silently unused.
func TestCatalogHasNoDuplicates(t *testing.T) {
	seen := make(map[symbolKey]API)
	for _, api := range catalog() {
		key := symbolKey{api.Pkg, api.Recv, api.Name}
		if prev, dup := seen[key]; dup {
			t.Errorf("catalog rows %+v and %+v share a key", prev, api)
		}
		seen[key] = api
		if api.Role == 0 {
			t.Errorf("catalog row %+v has no role", api)
		}
		if api.Role.Has(RoleNotToken) && api.Note == "" {
			t.Errorf("catalog row %s.%s.%s is not a token but says not why", api.Pkg, api.Recv, api.Name)
		}
	}
}

func TestCanonicalPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"github.com/go-redis/redis/v8", pkgGoRedis},
		{"github.com/go-redis/redis", pkgGoRedis},
		{"gopkg.in/redis.v5", pkgGoRedis},
		{"github.com/samuel/go-zookeeper/zk", pkgZK},
		{"go.etcd.io/etcd/clientv3/concurrency", pkgEtcdConc},
		{"github.com/coreos/etcd/clientv3", pkgEtcd},
		{"go.etcd.io/etcd/client/v3", pkgEtcd},
		{"github.com/go-redsync/redsync/v3", pkgRedsync},
		{"gopkg.in/redsync.v1", pkgRedsync},
		{"github.com/garyburd/redigo/redis", pkgRedigo},
		{"github.com/garyburd/redigo/redisx", "github.com/garyburd/redigo/redisx"},
		{"example.com/app/vendor/github.com/samuel/go-zookeeper/zk", pkgZK},
		{"github.com/samuel/go-zookeeper/zk/internal", "github.com/samuel/go-zookeeper/zk/internal"},
	} {
		if got := CanonicalPath(tc.in); got != tc.want {
			t.Errorf("CanonicalPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := newIndex().canonical(tc.in); got != tc.want {
			t.Errorf("index.canonical(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestForksPointAtCatalogRows: a fork of a package the catalog has no rows
// for would match nothing.
func TestForksPointAtCatalogRows(t *testing.T) {
	pkgs := make(map[string]bool)
	for _, api := range catalog() {
		pkgs[api.Pkg] = true
	}
	for _, f := range forks() {
		if !pkgs[f.Pkg] {
			t.Errorf("fork %s points at %s, which has no catalog rows", f.Path, f.Pkg)
		}
		if normalizePath(f.Path) != f.Path {
			t.Errorf("fork path %s keeps a major-version element; write %s", f.Path, normalizePath(f.Path))
		}
	}
}
