package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFencelintOnTheDemo runs fencelint over the demo: each unfenced
// variant gets one unfencedwrite finding, the late token one weaktoken
// finding (its token goes through fencegen's TokenOf and UpdateBalance), and
// the fenced variants and the rest of the program nothing.
func TestFencelintOnTheDemo(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "fencelint")
	build := exec.Command("go", "build", "-o", bin, "./cmd/fencelint")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building fencelint: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-json", "./...")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fencelint -json ./...: %v\n%s", err, stderr.String())
	}

	got := findingsByFile(t, out)
	want := map[string][]string{}
	for _, v := range allVariants() {
		file := strings.ReplaceAll(v.name, "-", "_") + ".go"
		switch v.guard {
		case "unfenced":
			want[file] = []string{"unfencedwrite"}
		case "late token":
			want[file] = []string{"weaktoken"}
		}
	}
	for file, analyzers := range got {
		if !slices.Equal(analyzers, want[file]) {
			t.Errorf("%s: fencelint reported %v, want %v", file, analyzers, want[file])
		}
	}
	for file, analyzers := range want {
		if _, ok := got[file]; !ok {
			t.Errorf("%s: fencelint reported nothing, want %v", file, analyzers)
		}
	}
}

// findingsByFile parses fencelint -json output (package, then analyzer,
// then findings or an error) into the analyzer of each finding per file,
// sorted: two findings in one file are listed twice, one finding reported
// for both the package and its test variant once.
func findingsByFile(t *testing.T, out []byte) map[string][]string {
	t.Helper()
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(out, &tree); err != nil {
		t.Fatalf("parsing fencelint -json output: %v\n%s", err, out)
	}
	got := map[string][]string{}
	seen := map[string]bool{} // the package and its test variant report the same finding
	for pkg, byAnalyzer := range tree {
		for analyzer, raw := range byAnalyzer {
			var failed struct{ Error string }
			if json.Unmarshal(raw, &failed) == nil && failed.Error != "" {
				t.Errorf("%s: %s failed: %s", pkg, analyzer, failed.Error)
				continue
			}
			var findings []struct{ Posn, Message string }
			if err := json.Unmarshal(raw, &findings); err != nil {
				t.Fatalf("%s: %s: %v in %s", pkg, analyzer, err, raw)
			}
			for _, f := range findings {
				if seen[analyzer+" "+f.Posn] {
					continue
				}
				seen[analyzer+" "+f.Posn] = true
				t.Logf("%s: %s", f.Posn, f.Message)
				file := filepath.Base(strings.Split(f.Posn, ":")[0])
				got[file] = append(got[file], analyzer)
				slices.Sort(got[file])
			}
		}
	}
	return got
}
