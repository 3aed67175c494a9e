package migrations

// RekeyUp is a Go migration: it may drop or change any key defined before it.
func RekeyUp(exec func(string) error) error {
	return exec("ALTER TABLE daily_reports DROP CONSTRAINT " + "daily_reports_day_kind")
}
