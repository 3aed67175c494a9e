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
