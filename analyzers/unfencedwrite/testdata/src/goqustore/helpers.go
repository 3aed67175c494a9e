package goqustore

import (
	"context"
	"database/sql"

	"github.com/doug-martin/goqu/v9"
	"github.com/doug-martin/goqu/v9/exp"
)

// Statements written out by helpers of the application's own, which take
// the table and the column as parameters and build their conditions in a
// list (search-indexer's goquDelete and goquInsertUpdate), are read with
// the caller's arguments: the write made through one is seen, fenced or
// not, where it is made and by the callers of the function that makes it.

func deleteWhere(table, column string, value any) (string, []any, error) {
	var where []exp.Expression
	where = append(where, goqu.C(column).Eq(value))
	if table == "steps" {
		where = append(where, goqu.C("kept").Neq(true))
	}
	return goqu.From(table).Delete().Where(where...).ToSQL()
}

func deleteFenced(table, column string, value any, tok int64) (string, []any, error) {
	where := []exp.Expression{goqu.C(column).Eq(value)}
	if table == "steps" {
		where = append(where, goqu.C("kept").Neq(true))
	}
	where = append(where, goqu.C("fence").Lt(tok))
	return goqu.From(table).Delete().Where(where...).ToSQL()
}

// deleteFencedSometimes fences only when it is given a token: a delete
// without one goes out with no fence.
func deleteFencedSometimes(table string, id any, tok int64) (string, []any, error) {
	where := []exp.Expression{goqu.C("id").Eq(id)}
	if tok > 0 {
		where = append(where, goqu.C("fence").Lt(tok))
	}
	return goqu.From(table).Delete().Where(where...).ToSQL()
}

// deleteFencedFor fences the deletes of jobs only: which statement a call
// sends is decided by the table it names.
func deleteFencedFor(table string, id any, tok int64) (string, []any, error) {
	where := []exp.Expression{goqu.C("id").Eq(id)}
	if table == "jobs" {
		where = append(where, goqu.C("fence").Lt(tok))
	}
	return goqu.From(table).Delete().Where(where...).ToSQL()
}

// deleteEach builds its conditions in a loop from columns it is given: what
// they compare is out of sight.
func deleteEach(table string, columns []string, value any) (string, []any, error) {
	var where []exp.Expression
	for _, c := range columns {
		if c != "" {
			where = append(where, goqu.C(c).Eq(value))
		}
	}
	return goqu.From(table).Delete().Where(where...).ToSQL()
}

func upsert(table string, id, data any) (string, []any, error) {
	return goqu.Insert(table).Rows(goqu.Record{"id": id, "data": data}).
		OnConflict(goqu.DoUpdate("id", goqu.C("data").Set(data)).Where(goqu.L(`"r".id`).Eq(id))).ToSQL()
}

func upsertFenced(table string, id, data any, tok int64) (string, []any, error) {
	return goqu.Insert(table).Rows(goqu.Record{"id": id, "data": data}).
		OnConflict(goqu.DoUpdate("id", goqu.C("data").Set(data)).Where(goqu.L("fence").Lt(tok))).ToSQL()
}

func updateWhere(table, column string, value any, data []byte) (string, []any, error) {
	return goqu.Update(table).Set(goqu.Record{"data": data}).Where(goqu.Ex{column: value}).ToSQL()
}

func updateFenced(table, fenceColumn string, tok int64, data []byte) (string, []any, error) {
	return goqu.Update(table).Set(goqu.Record{"data": data}).Where(goqu.Ex{fenceColumn: goqu.Op{"lt": tok}}).ToSQL()
}

// DAO makes the writes; it holds no lock itself.
type DAO struct{ db *sql.DB }

func (d *DAO) DropJob(ctx context.Context, id int64) error {
	q, args, err := deleteWhere("jobs", "id", id)
	if err != nil {
		return err
	}
	_, err = d.db.ExecContext(ctx, q, args...)
	return err
}

func (d *DAO) DropStepsFenced(ctx context.Context, id, tok int64) error {
	q, args, err := deleteFenced("steps", "job_id", id, tok)
	if err != nil {
		return err
	}
	return checked(d.db.ExecContext(ctx, q, args...))
}

func (d *DAO) DropStepsEach(ctx context.Context, columns []string, id int64) error {
	q, args, err := deleteEach("steps", columns, id)
	if err != nil {
		return err
	}
	_, err = d.db.ExecContext(ctx, q, args...)
	return err
}

func (d *DAO) SetData(ctx context.Context, id int64, data []byte) error {
	q, args, err := updateWhere("jobs", "id", id, data)
	if err != nil {
		return err
	}
	_, err = d.db.ExecContext(ctx, q, args...)
	return err
}

// SetDataFenced names the fence column to its helper.
func (d *DAO) SetDataFenced(ctx context.Context, tok int64, data []byte) error {
	q, args, err := updateFenced("jobs", "fence", tok, data)
	if err != nil {
		return err
	}
	return checked(d.db.ExecContext(ctx, q, args...))
}

func (d *DAO) SaveJob(ctx context.Context, id int64, data []byte) error {
	q, args, err := upsert("jobs", id, data)
	if err != nil {
		return err
	}
	_, err = d.db.ExecContext(ctx, q, args...)
	return err
}

func (d *DAO) SaveJobFenced(ctx context.Context, id int64, data []byte, tok int64) error {
	q, args, err := upsertFenced("jobs", id, data, tok)
	if err != nil {
		return err
	}
	return checked(d.db.ExecContext(ctx, q, args...))
}

// Sweep runs the DAO's writes under the job's lock.
func (s *Store) Sweep(ctx context.Context, d *DAO, id, tok int64, columns []string, data []byte) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	if err := d.DropJob(ctx, id); err != nil { // want `DAO.DropJob \(DB.ExecContext \(DELETE jobs\) at helpers.go:\d+\) writes to SQL database without a fencing token`
		return err
	}
	if err := d.SaveJob(ctx, id, data); err != nil { // want `DAO.SaveJob \(DB.ExecContext \(INSERT jobs\) at helpers.go:\d+\) writes to SQL database without a fencing token`
		return err
	}
	if err := d.SetData(ctx, id, data); err != nil { // want `DAO.SetData \(DB.ExecContext \(UPDATE jobs\) at helpers.go:\d+\) writes to SQL database without a fencing token`
		return err
	}
	if err := d.SetDataFenced(ctx, tok, data); err != nil {
		return err
	}
	if err := d.DropStepsFenced(ctx, id, tok); err != nil {
		return err
	}
	if err := d.SaveJobFenced(ctx, id, data, tok); err != nil {
		return err
	}
	// Out of sight: no write the caller can judge.
	return d.DropStepsEach(ctx, columns, id)
}

// SweepHere writes under the lock in the function itself.
func (s *Store) SweepHere(ctx context.Context, id, tok int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	q, args, err := deleteFencedSometimes("steps", id, tok)
	if err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, q, args...); err != nil { // want `DB.ExecContext \(DELETE steps\) writes to SQL database without a fencing token`
		return err
	}
	q, args, err = deleteFencedFor("steps", id, tok)
	if err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, q, args...); err != nil { // want `DB.ExecContext \(DELETE steps\) writes to SQL database without a fencing token`
		return err
	}
	// The table names the fenced branch: every statement this call can
	// send is fenced.
	q, args, err = deleteFencedFor("jobs", id, tok)
	if err != nil {
		return err
	}
	return checked(s.db.ExecContext(ctx, q, args...))
}
