// Package app locks its folders through its own helper around lockkit's.
package app

import (
	"database/sql"

	"passedcallbacks/lockkit"
)

// lockFolder runs f under the folder's lock: it hands f on as is.
func lockFolder(folder string, f func() error) error {
	return lockkit.ExecLocked("folder:"+folder, f)
}

func share(db *sql.DB, folder, user string) error {
	return lockFolder(folder, func() error {
		_, err := db.Exec("INSERT INTO grants (folder, user_no) VALUES ($1, $2)", folder, user) // want `writes to SQL database without a fencing token`
		return err
	})
}

func shareDirect(db *sql.DB, folder, user string) error {
	return lockkit.ExecLocked("folder:"+folder, func() error {
		_, err := db.Exec("INSERT INTO grants (folder, user_no) VALUES ($1, $2)", folder, user) // want `writes to SQL database without a fencing token`
		return err
	})
}

func create(db *sql.DB, name string) (int64, error) {
	return lockkit.RunLocked("folders", func() (int64, error) {
		res, err := db.Exec("INSERT INTO folders (name) VALUES ($1)", name) // want `writes to SQL database without a fencing token`
		if err != nil {
			return 0, err
		}
		return res.LastInsertId()
	})
}

// retry runs f again on failure: no lock is held.
func retry(f func() error) error {
	if err := f(); err != nil {
		return f()
	}
	return nil
}

// withRetry hands f on to retry, which holds no lock.
func withRetry(f func() error) error {
	return retry(f)
}

// afterLock takes the folder's lock for a check of its own and runs f once
// the lock is given up.
func afterLock(folder string, f func() error) error {
	if err := lockkit.ExecLocked("folder:"+folder, func() error { return nil }); err != nil {
		return err
	}
	return f()
}

func rename(db *sql.DB, folder, name string) error {
	if err := withRetry(func() error {
		_, err := db.Exec("UPDATE folders SET name = $1 WHERE id = $2", name, folder)
		return err
	}); err != nil {
		return err
	}
	return afterLock(folder, func() error {
		_, err := db.Exec("UPDATE folders SET name = $1 WHERE id = $2", name, folder)
		return err
	})
}

// lockShared hands f on to lockFolder, which hands it on to lockkit: two
// levels.
func lockShared(folder string, f func() error) error {
	if f == nil {
		return nil
	}
	return lockFolder("shared/"+folder, f)
}

func shareWithAll(db *sql.DB, folder string) error {
	return lockShared(folder, func() error {
		_, err := db.Exec("INSERT INTO grants (folder, user_no) SELECT $1, user_no FROM users", folder) // want `writes to SQL database without a fencing token`
		return err
	})
}

// LockFolder is lockFolder for other packages, wrapped in a closure of its
// own: the closure runs under the lock, so f does.
func LockFolder(folder string, f func() error) error {
	return lockFolder(folder, func() error { return f() })
}

// WithFolder is a generic helper of this package that hands f on to
// lockkit's generic one.
func WithFolder[T any](folder string, f func() (T, error)) (T, error) {
	return lockkit.RunLocked("folder:"+folder, f)
}

func countFiles(db *sql.DB, folder string) (int64, error) {
	return WithFolder(folder, func() (int64, error) {
		res, err := db.Exec("UPDATE folders SET files = files + 1 WHERE id = $1", folder) // want `writes to SQL database without a fencing token`
		if err != nil {
			return 0, err
		}
		return res.RowsAffected()
	})
}

// lockFolderRetried retries the locked work: f is handed on by the closure
// that retry runs, and runs under the lock.
func lockFolderRetried(folder string, f func() error) error {
	return retry(func() error { return lockFolder(folder, f) })
}

func unshare(db *sql.DB, folder, user string) error {
	return lockFolderRetried(folder, func() error {
		_, err := db.Exec("DELETE FROM grants WHERE folder = $1 AND user_no = $2", folder, user) // want `writes to SQL database without a fencing token`
		return err
	})
}

// lockNested hands f on to itself until depth is used up, then to
// lockFolder.
func lockNested(depth int, folder string, f func() error) error {
	if depth > 0 {
		return lockNested(depth-1, folder, f)
	}
	return lockFolder(folder, f)
}

func touch(db *sql.DB, folder string) error {
	return lockNested(2, folder, func() error {
		_, err := db.Exec("UPDATE folders SET touched = now() WHERE id = $1", folder) // want `writes to SQL database without a fencing token`
		return err
	})
}

// ping and pong hand f to each other; neither holds a lock.
func ping(n int, f func() error) error {
	if n == 0 {
		return f()
	}
	return pong(n-1, f)
}

func pong(n int, f func() error) error {
	return ping(n, f)
}

// lockThen hands check on to run under the folder's lock and then on to
// run once the lock is given up.
func lockThen(folder string, check, then func() error) error {
	return lockkit.ExecThen("folder:"+folder, check, then)
}

func move(db *sql.DB, folder, to string) error {
	if err := ping(3, func() error {
		_, err := db.Exec("UPDATE folders SET parent = $1 WHERE id = $2", to, folder)
		return err
	}); err != nil {
		return err
	}
	return lockThen(folder, func() error {
		_, err := db.Exec("UPDATE folders SET moving = true WHERE id = $1", folder) // want `writes to SQL database without a fencing token`
		return err
	}, func() error {
		_, err := db.Exec("UPDATE folders SET moving = false WHERE id = $1", folder)
		return err
	})
}

// indexer reindexes one folder; its reindex method is handed over as a
// value.
type indexer struct {
	db     *sql.DB
	folder string
}

func (ix *indexer) reindex() error {
	_, err := ix.db.Exec("UPDATE folders SET indexed = now() WHERE id = $1", ix.folder) // want `writes to SQL database without a fencing token`
	return err
}

func (ix *indexer) prune() error {
	_, err := ix.db.Exec("DELETE FROM folder_index WHERE folder = $1", ix.folder)
	return err
}

// runIndexer hands ix.reindex on as a method value: it runs under the lock.
// ix.prune goes to retry, which holds none.
func runIndexer(ix *indexer) error {
	if err := retry(ix.prune); err != nil {
		return err
	}
	return lockFolder(ix.folder, ix.reindex)
}

// WithoutLock runs f with no lock held.
func WithoutLock(f func() error) error {
	return withRetry(f)
}
