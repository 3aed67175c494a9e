package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestStoreIsCurrent regenerates the store package as go:generate does, into
// a temp dir, and compares it with the committed one.
func TestStoreIsCurrent(t *testing.T) {
	out := t.TempDir()
	cmd := exec.Command("go", "run", "./cmd/fencegen", "-config", "examples/frozendemo/fencegen.yaml", "-no-version", "-out", out)
	cmd.Dir = filepath.Join("..", "..")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fencegen: %v\n%s", err, msg)
	}
	fresh, committed := readDir(t, out), readDir(t, "store")
	names := func(m map[string][]byte) []string {
		var s []string
		for k := range m {
			s = append(s, k)
		}
		slices.Sort(s)
		return s
	}
	if !slices.Equal(names(fresh), names(committed)) {
		t.Fatalf("store/ has %v, fencegen writes %v: run go generate", names(committed), names(fresh))
	}
	for name, data := range fresh {
		if !bytes.Equal(data, committed[name]) {
			t.Errorf("store/%s is not what fencegen generates from schema.sql: run go generate", name)
		}
	}
}

func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	return files
}
