// Package sqlbuilders writes through squirrel and sqlx under an advisory
// lock: the statements are read from the builder chain as the SQL the
// builder would send, and fenced by the same rules as SQL text.
package sqlbuilders

import (
	"context"
	"database/sql"
	"errors"

	sq "github.com/Masterminds/squirrel"
	"github.com/jmoiron/sqlx"
)

var errStale = errors.New("stale fence")

type Doc struct {
	ID    int64  `db:"id"`
	Body  string `db:"body"`
	Fence int64  `db:"fence"`
}

func lock(ctx context.Context, conn *sql.Conn, key int64) error {
	_, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", key)
	return err
}

func squirrelWrites(ctx context.Context, db *sql.DB, conn *sql.Conn, id, tok int64) error {
	if err := lock(ctx, conn, id); err != nil {
		return err
	}
	if _, err := sq.Update("runs").Set("state", "done").Where(sq.Eq{"id": id}).RunWith(db).ExecContext(ctx); err != nil { // want `UpdateBuilder.ExecContext \(UPDATE runs\) writes to SQL database without a fencing token`
		return err
	}
	sq.Insert("runs").Columns("id", "state").Values(id, "new").RunWith(db).Exec() // want `InsertBuilder.Exec \(INSERT runs\) writes to SQL database without a fencing token`
	res, err := sq.Update("runs").Set("state", "done").Set("fence", tok).
		Where(sq.Eq{"id": id}).Where(sq.LtOrEq{"fence": tok}).RunWith(db).ExecContext(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	res, err = sq.Update("runs").Set("state", "done").Where("id = ? AND fence < ?", id, tok).
		PlaceholderFormat(sq.Dollar).RunWith(db).Exec()
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	if _, err := sq.Update("runs").Set("state", "done").Where("id = ? AND fence < ?", id, 7).RunWith(db).Exec(); err != nil { // want `UpdateBuilder.Exec \(UPDATE runs\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := sq.Delete("runs").Where(sq.Eq{"id": id}).RunWith(db).Exec(); err != nil { // want `DeleteBuilder.Exec \(DELETE runs\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := sq.Insert("runs").Columns("id", "state").Values(id, "new").Suffix("ON CONFLICT (id) DO NOTHING").RunWith(db).Exec(); err != nil {
		return err
	}
	return err
}

// squirrelToSql builds with ToSql and sends the text itself.
func squirrelToSql(ctx context.Context, db *sql.DB, conn *sql.Conn, id, tok int64, where sq.Sqlizer) error {
	if err := lock(ctx, conn, id); err != nil {
		return err
	}
	q, args, err := sq.Update("runs").Set("state", "done").Where(sq.Eq{"id": id}).ToSql()
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, q, args...); err != nil { // want `DB.ExecContext \(UPDATE runs\) writes to SQL database without a fencing token`
		return err
	}
	q, args, err = sq.Update("runs").Set("state", "done").Where(sq.Lt{"fence": tok}).ToSql()
	if err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, q, args...)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	_, err = sq.Update("runs").Set("state", "done").Where(where).RunWith(db).Exec() // want `UpdateBuilder.Exec \(UPDATE runs\) writes to SQL database while the PostgreSQL lock taken by sqlbuilders.lock \(line 66\) is held, and fencelint could not see its WHERE clause`
	return err
}

func sqlxWrites(ctx context.Context, db *sqlx.DB, conn *sql.Conn, doc Doc) error {
	if err := lock(ctx, conn, doc.ID); err != nil {
		return err
	}
	if _, err := db.NamedExecContext(ctx, `UPDATE docs SET body = :body WHERE id = :id`, doc); err != nil { // want `DB.NamedExecContext \(UPDATE docs\) writes to SQL database without a fencing token`
		return err
	}
	res, err := db.NamedExecContext(ctx, `UPDATE docs SET body = :body, fence = :fence WHERE id = :id AND fence < :fence`, doc)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	q, args, err := db.BindNamed(`UPDATE docs SET body = :body WHERE id = :id`, doc)
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, q, args...); err != nil { // want `ExecContext \(UPDATE docs\) writes to SQL database without a fencing token`
		return err
	}
	q, args, err = db.BindNamed(`UPDATE docs SET body = :body, fence = :fence WHERE id = :id AND fence < :fence`, doc)
	if err != nil {
		return err
	}
	res, err = db.ExecContext(ctx, db.Rebind(q), args...)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	db.MustExecContext(ctx, `DELETE FROM docs WHERE id = $1`, doc.ID) // want `DB.MustExecContext \(DELETE docs\) writes to SQL database without a fencing token`
	return nil
}
