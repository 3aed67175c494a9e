// Package jobs uses app's exported folder helpers from another package.
package jobs

import (
	"database/sql"

	"passedcallbacks/app"
)

func archive(db *sql.DB, folder string) error {
	return app.LockFolder(folder, func() error {
		_, err := db.Exec("UPDATE folders SET archived = true WHERE id = $1", folder) // want `writes to SQL database without a fencing token`
		return err
	})
}

func size(db *sql.DB, folder string) (int, error) {
	return app.WithFolder(folder, func() (int, error) {
		_, err := db.Exec("UPDATE folders SET sized = now() WHERE id = $1", folder) // want `writes to SQL database without a fencing token`
		return 0, err
	})
}

// compactor's run method is handed to another package's helper as a value.
type compactor struct {
	db     *sql.DB
	folder string
}

func (c *compactor) run() error {
	_, err := c.db.Exec("UPDATE folders SET compacted = now() WHERE id = $1", c.folder) // want `writes to SQL database without a fencing token`
	return err
}

func compact(c *compactor) error {
	return app.LockFolder(c.folder, c.run)
}
