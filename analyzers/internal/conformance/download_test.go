package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDownloadFailsLoudlyOffline proves that a machine without the module
// proxy gets a failing test that says why, not a silent skip: it downloads
// the conformance module's requirements into an empty module cache with the
// proxy turned off.
func TestDownloadFailsLoudlyOffline(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(moduleDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err := download(dir, []string{"GOPROXY=off", "GOMODCACHE=" + t.TempDir(), "GOFLAGS=-mod=mod"})
	if err == nil {
		t.Fatal("go mod download with GOPROXY=off into an empty module cache succeeded; want an error")
	}
	for _, want := range []string{"go mod download", "needs the Go module proxy", "does not skip"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
