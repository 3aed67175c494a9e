// Package e2e_test holds the module-wide checks of the fencegen end-to-end
// tests; the engines' tests live in postgres/, mariadb/ and sqlite/.
package e2e_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGoldenSchemasMatch checks that every golden case the engine tests
// import was generated from the schema those tests load into the database
// (schema/*.sql here, copied into ../golden/<case>/schema.sql). A drifted
// copy would test generated code against tables it was not generated for.
func TestGoldenSchemasMatch(t *testing.T) {
	cases := map[string][]string{
		"schema/postgresql.sql": {"postgres-pgx", "postgres-pgx-lt", "postgres-stdlib"},
		"schema/mysql.sql":      {"mysql", "mysql-lt"},
		"schema/sqlite.sql":     {"sqlite", "sqlite-lt"},
	}
	for source, goldens := range cases {
		want, err := os.ReadFile(source)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range goldens {
			copyPath := filepath.Join("..", "golden", name, "schema.sql")
			got, err := os.ReadFile(copyPath)
			if err != nil {
				t.Errorf("golden case %s: %v", name, err)
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s: copy it over and run `go test ./gen/... -update` at the repository root", copyPath, source)
			}
		}
	}
}
