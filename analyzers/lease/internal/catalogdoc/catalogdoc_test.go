package catalogdoc

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzers/lease"
)

var update = flag.Bool("update", false, "rewrite the README's catalog tables from lease.Catalog()")

const readme = "../../../../README.md"

// TestREADME checks that the README's tables of supported libraries and
// stores are what the catalog says; -update rewrites them.
func TestREADME(t *testing.T) {
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start, end := strings.Index(text, Begin), strings.Index(text, End)
	if start < 0 || end < start {
		t.Fatalf("%s: no generated catalog tables (the lines %q and %q); add them where the tables go and run go test -update", readme, Begin, End)
	}
	have := text[start : end+len(End)]
	want := Markdown()
	if have == want {
		return
	}
	if !*update {
		t.Fatalf("%s: the catalog tables differ from lease.Catalog(); run go test ./analyzers/lease/internal/catalogdoc -update", readme)
	}
	out := text[:start] + want + text[end+len(End):]
	tmp, err := os.CreateTemp(filepath.Dir(readme), ".README-*.md")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(out); err != nil {
		t.Fatal(err)
	}
	if err := tmp.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp.Name(), readme); err != nil {
		t.Fatal(err)
	}
}

// TestMarkdownNamesEveryRow checks that the generated tables mention every
// catalogued system, spawner and fork, so a new library cannot be left out.
func TestMarkdownNamesEveryRow(t *testing.T) {
	md := Markdown()
	for _, sp := range lease.Spawners() {
		name := sp.Name
		if sp.Recv != "" {
			name = sp.Recv + "." + name
		}
		if want := "| `" + sp.Pkg + "` | "; !strings.Contains(md, want) {
			t.Errorf("generated tables lack the spawners of %s", sp.Pkg)
		}
		if !strings.Contains(md, "`"+name+"`") {
			t.Errorf("generated tables lack the spawner %s.%s", sp.Pkg, name)
		}
	}
	for _, want := range []string{"| etcd |", "| ZooKeeper |", "| Kubernetes leader election |", "`LeaderCallbacks.OnStoppedLeading`",
		"| PostgreSQL |", "| S3 |", "`github.com/linkedin/go-zk`", "`google/uuid`: `New`"} {
		if !strings.Contains(md, want) {
			t.Errorf("generated tables lack %s", want)
		}
	}
	for _, r := range lease.Catalog() {
		if r.System != "" || !r.Role.Has(lease.RoleNotToken) {
			continue
		}
		if want := "`" + strings.TrimPrefix(r.Pkg, "github.com/") + "`: "; !strings.Contains(md, want) {
			t.Errorf("generated tables lack the values of %s that are never tokens", r.Pkg)
		}
	}
}
