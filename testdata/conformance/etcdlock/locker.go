package etcdlock

import (
	"database/sql"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// LegacyCounter uses the sync.Locker form of the etcd mutex that older
// code paths were written against: Lock takes the same etcd lock (and
// panics on error), so the UPDATE is as unfenced as with a Mutex.
func LegacyCounter(s *concurrency.Session, db *sql.DB) error {
	l := concurrency.NewLocker(s, "/locks/legacy-counter")
	l.Lock()
	defer l.Unlock()
	_, err := db.Exec(`UPDATE counters SET n = n + 1 WHERE name = 'legacy'`) // want unfencedwrite:"without a fencing token"
	return err
}
