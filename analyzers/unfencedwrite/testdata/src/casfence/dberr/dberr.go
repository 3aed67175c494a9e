// Package dberr translates database errors, as Harness's
// database.ProcessSQLErrorf does: it never returns nil, so a store that
// returns what it returns returns an error.
package dberr

import (
	"database/sql"
	"errors"
	"fmt"
)

var ErrNotFound = errors.New("resource not found")

// Wrap returns err translated and wrapped with msg.
func Wrap(err error, msg string) error {
	translated := err
	if errors.Is(err, sql.ErrNoRows) {
		translated = ErrNotFound
	}
	return fmt.Errorf("%s: %w", msg, translated)
}

// Ignore swallows a missing row: it may return nil.
func Ignore(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	return err
}
