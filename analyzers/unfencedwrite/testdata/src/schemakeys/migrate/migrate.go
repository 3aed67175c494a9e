// Package migrate embeds the schema's migrations (MySQL), as magicpool's
// tsdb package does; the packages that import it see its tables' keys.
package migrate

import (
	"database/sql"
	"embed"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Apply runs the up migrations in order.
func Apply(db *sql.DB) error {
	entries, err := migrations.ReadDir("migrations")
	if err != nil {
		return err
	}
	for _, e := range entries {
		text, err := migrations.ReadFile("migrations/" + e.Name())
		if err != nil {
			return err
		}
		if _, err := db.Exec(string(text)); err != nil {
			return err
		}
	}
	return nil
}
