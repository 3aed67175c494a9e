package gen

import (
	"errors"
	"testing"
)

// TestSQLCMessagesPlaced checks that sqlc's messages come back placed in
// the user's input: a schema copy's position in the user's file, a fenced
// query's at the table it fences (once per table), and anything else
// unchanged.
func TestSQLCMessagesPlaced(t *testing.T) {
	schema := []Source{{Path: "db/schema.sql", Data: []byte("CREATE TABLE docs (id bigint PRIMARY KEY, fence bigint);\n")}}
	s, err := ParseSchema(PostgreSQL, schema)
	if err != nil {
		t.Fatal(err)
	}
	tables, _, err := selectFenced(s, DefaultFence, nil)
	if err != nil {
		t.Fatal(err)
	}
	job := sqlcJob{Engine: PostgreSQL, Schemas: schema, Internal: []Source{{Path: leaseSchemaFile, Data: []byte(leaseSchema)}},
		Queries: renderFencedSQL(PostgreSQL, CompareLE, tables, tokenSources{}), Tables: tables}
	tests := []struct {
		name, output, want string
	}{
		{
			name:   "user schema",
			output: "# package db\nschema/000.sql:3:25: column \"nope\" does not exist\n",
			want:   "db/schema.sql:3:25: sqlc: column \"nope\" does not exist",
		},
		{
			name:   "fenced queries",
			output: "# package db\nfenced.sql:1:1: relation \"docs\" does not exist\nfenced.sql:9:1: relation \"docs\" does not exist\n",
			want:   "db/schema.sql:1:14: sqlc cannot compile fencegen's queries for docs (fencedUpdateDoc, fenced.sql:1:1: relation \"docs\" does not exist): fencegen and sqlc read this table differently, a fencegen bug; please report it with the table's definition",
		},
		{
			name:   "inside a query",
			output: "fenced.sql:12:7: column \"fence\" does not exist\n",
			want:   "db/schema.sql:1:14: sqlc cannot compile fencegen's queries for docs (fencedUpsertDoc, fenced.sql:12:7: column \"fence\" does not exist): fencegen and sqlc read this table differently, a fencegen bug; please report it with the table's definition",
		},
		{
			name:   "fencegen's own schema",
			output: "schema/001.sql:1:1: syntax error\n",
			want:   "sqlc generate failed (exit status 1): schema/001.sql:1:1: syntax error",
		},
		{
			name:   "unpositioned",
			output: "error parsing schema: boom\n",
			want:   "sqlc generate failed (exit status 1): error parsing schema: boom",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := job.explain(&sqlcFailure{err: errors.New("exit status 1"), output: tt.output})
			if err.Error() != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", err, tt.want)
			}
		})
	}
}

// TestQueryNameAt covers both places sqlc reports a query error: where the
// statement's text begins (above its name comment) and inside it.
func TestQueryNameAt(t *testing.T) {
	queries := "\n-- name: first :exec\nUPDATE t\nSET a = 1;\n\n-- name: second :one\nSELECT 1;\n"
	for line, want := range map[int]string{1: "first", 2: "first", 3: "first", 4: "first", 5: "second", 7: "second"} {
		if got := queryNameAt(queries, line); got != want {
			t.Errorf("line %d: %q, want %q", line, got, want)
		}
	}
}
