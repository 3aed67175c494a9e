package sqlbuilders

import (
	"context"
	"database/sql"

	sq "github.com/Masterminds/squirrel"
)

// A builder chain extended in an if is read along each path.

// finishOptional adds a column in one branch; the fence is on the chain
// either way.
func finishOptional(ctx context.Context, db *sql.DB, conn *sql.Conn, id, tok int64, note string) error {
	if err := lock(ctx, conn, id); err != nil {
		return err
	}
	q := sq.Update("runs").Set("state", "done").Where(sq.Eq{"id": id}).Where(sq.Lt{"fence": tok})
	if note != "" {
		q = q.Set("note", note)
	}
	res, err := q.RunWith(db).ExecContext(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

// finishFencedSometimes fences only when it has a token.
func finishFencedSometimes(ctx context.Context, db *sql.DB, conn *sql.Conn, id, tok int64) error {
	if err := lock(ctx, conn, id); err != nil {
		return err
	}
	q := sq.Update("runs").Set("state", "done").Where(sq.Eq{"id": id})
	if tok > 0 {
		q = q.Where(sq.LtOrEq{"fence": tok})
	}
	res, err := q.RunWith(db).ExecContext(ctx) // want `UpdateBuilder.ExecContext \(UPDATE runs\) writes to SQL database without a fencing token`
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

// finishFiltered adds conditions in a loop after the fence.
func finishFiltered(ctx context.Context, db *sql.DB, conn *sql.Conn, id, tok int64, states []string) error {
	if err := lock(ctx, conn, id); err != nil {
		return err
	}
	q := sq.Update("runs").Set("state", "done").Where(sq.Eq{"id": id}).Where(sq.Lt{"fence": tok})
	for _, s := range states {
		q = q.Where(sq.NotEq{"state": s})
	}
	res, err := q.RunWith(db).ExecContext(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

// finishFilteredUnfenced is its twin without the fence.
func finishFilteredUnfenced(ctx context.Context, db *sql.DB, conn *sql.Conn, id int64, states []string) error {
	if err := lock(ctx, conn, id); err != nil {
		return err
	}
	q := sq.Update("runs").Set("state", "done").Where(sq.Eq{"id": id})
	for _, s := range states {
		q = q.Where(sq.NotEq{"state": s})
	}
	_, err := q.RunWith(db).ExecContext(ctx) // want `UpdateBuilder.ExecContext \(UPDATE runs\) writes to SQL database without a fencing token`
	return err
}

// A run's changed columns, each set only when it changed.
type run struct {
	State, Note, Owner, Stage, Host, Image string
}

// saveChanged sets each changed column under its own if: 64 paths, read
// along the first sixteen, which all lack a fence.
func saveChanged(ctx context.Context, db *sql.DB, conn *sql.Conn, id int64, old, cur run) error {
	if err := lock(ctx, conn, id); err != nil {
		return err
	}
	q := sq.Update("runs")
	if cur.State != old.State {
		q = q.Set("state", cur.State)
	}
	if cur.Note != old.Note {
		q = q.Set("note", cur.Note)
	}
	if cur.Owner != old.Owner {
		q = q.Set("owner", cur.Owner)
	}
	if cur.Stage != old.Stage {
		q = q.Set("stage", cur.Stage)
	}
	if cur.Host != old.Host {
		q = q.Set("host", cur.Host)
	}
	if cur.Image != old.Image {
		q = q.Set("image", cur.Image)
	}
	_, err := q.Where(sq.Eq{"id": id}).RunWith(db).ExecContext(ctx) // want `UpdateBuilder.ExecContext \(UPDATE runs\) writes to SQL database without a fencing token`
	return err
}
