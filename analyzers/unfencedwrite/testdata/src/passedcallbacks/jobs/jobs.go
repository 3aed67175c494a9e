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
