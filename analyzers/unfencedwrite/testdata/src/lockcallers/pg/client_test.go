package pg

import (
	"context"
	"database/sql"
	"testing"

	"lockcallers/remote"
)

func TestRemoteClient(t *testing.T) {
	db, err := sql.Open("postgres", "")
	if err != nil {
		t.Fatal(err)
	}
	c := &RemoteClient{DB: db, Name: "test"}
	defer c.Purge(context.Background())
	remote.TestClient(t, c)
}
