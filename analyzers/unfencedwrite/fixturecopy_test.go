package unfencedwrite_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestFencegenFixturesAreCurrent checks that the fixture packages copied
// from fencegen's goldens are still byte-for-byte what fencegen generates,
// so the analyzer is tested on today's output, not an older one. A file
// without a generated-code header is the fixture's own (leasedb's caller).
func TestFencegenFixturesAreCurrent(t *testing.T) {
	copies := map[string]string{ // fixture package -> golden package
		"testdata/src/fencegen/plugindb": "../../testdata/fencegen/golden/sqlc-plugin/plugindb",
		"testdata/src/fencegen/querydb":  "../../testdata/fencegen/golden/postgres-queries/querydb",
		"testdata/src/fencegen/leasedb":  "../../testdata/fencegen/golden/sqlc-plugin-leases/leasedb",
	}
	for fixture, golden := range copies {
		files, err := filepath.Glob(filepath.Join(fixture, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", fixture, err)
		}
		for _, file := range files {
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(got, []byte("// Code generated ")) {
				continue // the fixture's own code, beside the copy
			}
			want, err := os.ReadFile(filepath.Join(golden, filepath.Base(file)))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s: fencegen's output changed; copy the golden over it (cp %s/*.go %s/)",
					file, golden, golden, fixture)
			}
		}
	}
}
