package app

import (
	"context"
	"database/sql"
)

// recordingNotes is a test double that writes to a scratch database: a
// type of a _test.go file does not make a call through the interface a
// write.
type recordingNotes struct{ db *sql.DB }

func (n *recordingNotes) Note(ctx context.Context, text string) error {
	_, err := n.db.ExecContext(ctx, `INSERT INTO notes (text) VALUES ($1)`, text)
	return err
}

var _ = &Service{notes: &recordingNotes{}}
