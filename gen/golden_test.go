package gen

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/fencegen/golden")

// goldenDir holds one directory per case: fencegen.yaml, its schema files,
// the expected package under the configured out directory, and
// warnings.golden (the warnings, one a line; absent when none).
const goldenDir = "../testdata/fencegen/golden"

func TestGolden(t *testing.T) {
	configs, err := filepath.Glob(filepath.Join(goldenDir, "*", "fencegen.yaml"))
	if err != nil || len(configs) == 0 {
		t.Fatalf("no golden cases in %s (%v)", goldenDir, err)
	}
	for _, cfgPath := range configs {
		dir := filepath.Dir(cfgPath)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			res, out := generateCase(t, dir)
			again, _ := generateCase(t, dir)
			checkDeterministicAndFormatted(t, res, again)
			want := map[string][]byte{}
			for name, data := range res.Files {
				want[filepath.Join(out, name)] = data
			}
			if w := warningsText(res.Warnings); w != "" {
				want["warnings.golden"] = []byte(w)
			}
			if *update {
				writeGolden(t, dir, out, want)
			}
			compareTree(t, dir, out, want)
		})
	}
}

// checkDeterministicAndFormatted requires two generations to agree byte for
// byte and every Go file to be gofmt's output already.
func checkDeterministicAndFormatted(t *testing.T, a, b *Result) {
	t.Helper()
	for name, data := range a.Files {
		if !bytes.Equal(data, b.Files[name]) {
			t.Errorf("%s differs between two generations", name)
		}
		if strings.HasSuffix(name, ".go") {
			formatted, err := format.Source(data)
			if err != nil || !bytes.Equal(formatted, data) {
				t.Errorf("%s is not gofmt'd (%v)", name, err)
			}
		}
	}
	if len(a.Files) != len(b.Files) {
		t.Errorf("two generations wrote %d and %d files", len(a.Files), len(b.Files))
	}
}

// generateCase runs Generate with paths relative to the case directory, as
// a //go:generate line in that directory would.
func generateCase(t *testing.T, dir string) (*Result, string) {
	t.Helper()
	opts, out := caseOptions(t, dir)
	res, err := Generate(opts)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return res, out
}

func warningsText(ws []Diagnostic) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.String() + "\n")
	}
	return b.String()
}

func writeGolden(t *testing.T, dir, out string, want map[string][]byte) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(dir, out)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "warnings.golden"))
	for name, data := range want {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// compareTree checks that the output directory and warnings.golden hold
// exactly the wanted files: no file missing, extra or different.
func compareTree(t *testing.T, dir, out string, want map[string][]byte) {
	t.Helper()
	got := map[string][]byte{}
	err := filepath.WalkDir(filepath.Join(dir, out), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		got[rel] = data
		return err
	})
	if err != nil {
		t.Fatalf("reading golden output (run go test ./gen/... -update to create it): %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "warnings.golden")); err == nil {
		got["warnings.golden"] = data
	}
	var names []string
	for name := range want {
		names = append(names, name)
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		w, inWant := want[name]
		g, inGot := got[name]
		switch {
		case !inGot:
			t.Errorf("%s: missing from the golden tree", name)
		case !inWant:
			t.Errorf("%s: in the golden tree but not generated", name)
		case !bytes.Equal(w, g):
			t.Errorf("%s differs from the golden file; run go test ./gen/... -update and review the diff\n%s", name, firstDiff(string(g), string(w)))
		}
	}
}

// firstDiff shows the first differing line.
func firstDiff(golden, generated string) string {
	gl, nl := strings.Split(golden, "\n"), strings.Split(generated, "\n")
	for i := 0; i < len(gl) || i < len(nl); i++ {
		var a, b string
		if i < len(gl) {
			a = gl[i]
		}
		if i < len(nl) {
			b = nl[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n golden:    %s\n generated: %s", i+1, a, b)
		}
	}
	return ""
}

// TestGoldenCompiles builds and vets every golden package in the nested
// module under testdata/fencegen/golden, which requires only the drivers.
func TestGoldenCompiles(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command(goTool, args...)
		cmd.Dir = goldenDir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s in %s: %v\n%s", strings.Join(args, " "), goldenDir, err, out)
		}
	}
}
