package remote

import (
	"bytes"
	"context"
	"testing"
)

// TestClient is the conformance test every backend's tests run on their
// client: it is the only caller of Client.Delete, and it takes no lock.
func TestClient(t *testing.T, c Client) {
	ctx := context.Background()
	if err := c.Put(ctx, []byte("{}")); err != nil {
		t.Fatalf("put: %s", err)
	}
	data, err := c.Get(ctx)
	if err != nil || !bytes.Equal(data, []byte("{}")) {
		t.Fatalf("get: %q, %v", data, err)
	}
	if err := c.Delete(ctx); err != nil {
		t.Fatalf("delete: %s", err)
	}
}
