package testwrites

import (
	"context"
	"database/sql"
	"testing"

	"github.com/go-redsync/redsync/v4"
)

func TestCheckoutUnderLock(t *testing.T) {
	var rs *redsync.Redsync
	var db *sql.DB
	m := rs.NewMutex("lock:checkout")
	if err := m.LockContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.UnlockContext(context.Background())
	if _, err := db.ExecContext(context.Background(), `UPDATE carts SET state = 'paid' WHERE id = $1`, 7); err != nil { // want `without a fencing token`
		t.Fatal(err)
	}
}
