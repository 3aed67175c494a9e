package sqllock

import (
	"bytes"
	"context"
	"testing"
)

// TestStateClient is the check every deployment's tests run on their
// client: write, read back, delete. It is a test helper and takes no lock.
func TestStateClient(t *testing.T, c *StateClient) {
	ctx := context.Background()
	if err := c.Put(ctx, []byte("{}")); err != nil {
		t.Fatalf("put: %v", err)
	}
	if data, err := c.Get(ctx); err != nil || !bytes.Equal(data, []byte("{}")) {
		t.Fatalf("get: %q, %v", data, err)
	}
	if err := c.Delete(ctx); err != nil {
		t.Fatalf("delete: %v", err)
	}
}
