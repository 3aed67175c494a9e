// Package goqustore writes through goqu under a PostgreSQL advisory lock:
// datasets run by Executor().Exec() or written out with ToSQL() are read
// as the SQL goqu sends, conditions built from goqu's expressions.
package goqustore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/doug-martin/goqu/v9"
)

var errStale = errors.New("stale fence")

type Store struct {
	gq   *goqu.Database
	db   *sql.DB
	conn *sql.Conn
}

func (s *Store) lock(ctx context.Context, key int64) error {
	_, err := s.conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", key)
	return err
}

func checked(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errStale
	}
	return nil
}

func (s *Store) Finish(ctx context.Context, id, tok int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	if _, err := s.gq.Update("jobs").Set(goqu.Record{"state": "done"}).Where(goqu.C("id").Eq(id)).Executor().ExecContext(ctx); err != nil { // want `QueryExecutor.ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token`
		return err
	}
	if err := checked(s.gq.Update("jobs").Set(goqu.Record{"state": "done", "fence": tok}).
		Where(goqu.C("id").Eq(id), goqu.C("fence").Lt(tok)).Executor().ExecContext(ctx)); err != nil {
		return err
	}
	if err := checked(s.gq.Update("jobs").Set(goqu.Record{"state": "done"}).
		Where(goqu.Ex{"id": id, "fence": goqu.Op{"lte": tok}}).Executor().Exec()); err != nil {
		return err
	}
	if err := checked(s.gq.Update("jobs").Set(goqu.Record{"state": "done"}).
		Where(goqu.And(goqu.C("id").Eq(id), goqu.L("fence < ?", tok))).Executor().Exec()); err != nil {
		return err
	}
	// A fence ORed with another condition rejects nothing.
	if err := checked(s.gq.Update("jobs").Set(goqu.Record{"state": "done"}).
		Where(goqu.Or(goqu.C("id").Eq(id), goqu.C("fence").Lt(tok))).Executor().Exec()); err != nil { // want `QueryExecutor.Exec \(UPDATE jobs\) writes to SQL database without a fencing token`
		return err
	}
	// Written out with ToSQL and sent with database/sql.
	q, args, err := goqu.Update("jobs").Set(goqu.Record{"state": "done"}).Where(goqu.Ex{"id": id}).ToSQL()
	if err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, q, args...); err != nil { // want `DB.ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token`
		return err
	}
	q, args, err = goqu.Update("jobs").Set(goqu.Record{"state": "done"}).Where(goqu.C("fence").Lte(tok)).ToSQL()
	if err != nil {
		return err
	}
	return checked(s.db.ExecContext(ctx, q, args...))
}

func (s *Store) Record(ctx context.Context, id int64, step int, tok int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	row := goqu.Record{"job_id": id, "step": step}
	if _, err := s.gq.Insert("steps").Rows(row).OnConflict(goqu.DoNothing()).Executor().Exec(); err != nil {
		return err
	}
	if _, err := s.gq.Insert("steps").Rows(row).OnConflict(goqu.DoUpdate("job_id", goqu.Record{"step": step})).Executor().Exec(); err != nil { // want `QueryExecutor.Exec \(INSERT steps\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := s.gq.Insert("steps").Rows(row).Executor().Exec(); err != nil { // want `QueryExecutor.Exec \(INSERT steps\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := s.gq.Delete("steps").Where(goqu.C("job_id").Eq(id)).Executor().Exec(); err != nil { // want `QueryExecutor.Exec \(DELETE steps\) writes to SQL database without a fencing token`
		return err
	}
	return checked(s.gq.Delete("jobs").Where(goqu.C("id").Eq(id), goqu.C("fence").Lte(tok)).Executor().Exec())
}

// FinishFrom updates through a dataset: its Update keeps the dataset's
// table and WHERE clause, so a fence there fences the update.
func (s *Store) FinishFrom(ctx context.Context, id, tok int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	if err := checked(s.gq.From("jobs").Where(goqu.C("id").Eq(id), goqu.C("fence").Lt(tok)).
		Update().Set(goqu.Record{"state": "done", "fence": tok}).Executor().ExecContext(ctx)); err != nil {
		return err
	}
	if err := checked(goqu.From("jobs").Where(goqu.C("fence").Lte(tok)).Delete().Where(goqu.C("id").Eq(id)).Executor().Exec()); err != nil {
		return err
	}
	if err := checked(s.gq.From("jobs").Where(goqu.C("id").Eq(id)).Update().Set(goqu.Record{"state": "done"}).Executor().Exec()); err != nil { // want `QueryExecutor.Exec \(UPDATE jobs\) writes to SQL database without a fencing token`
		return err
	}
	_, err := goqu.From("jobs").Limit(10).Delete().Executor().Exec() // want `QueryExecutor.Exec \(DELETE jobs\) writes to SQL database without a fencing token`
	return err
}
