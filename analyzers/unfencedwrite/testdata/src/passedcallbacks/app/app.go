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
