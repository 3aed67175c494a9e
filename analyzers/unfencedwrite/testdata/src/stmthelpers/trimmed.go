package stmthelpers

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/bsm/redislock"
)

// Query is a framework's statement runner: it trims the statement it is
// handed (for its SQL log) before it sends it, so the text at the caller is
// still the statement.
type Query struct {
	db *sql.DB
}

// Exec runs stmt and returns how many rows it changed.
func (q *Query) Exec(stmt string, args ...any) (int64, error) {
	stmt = strings.TrimSpace(stmt)
	res, err := q.db.Exec(stmt, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// ExecUpper is Exec for callers that write their keywords in lower case.
func (q *Query) ExecUpper(stmt string, args ...any) error {
	_, err := q.db.Exec(strings.ToUpper(strings.TrimSpace(stmt)), args...)
	return err
}

// Describe logs stmt's plan: the statement it sends is its own, not stmt.
func (q *Query) Describe(stmt string) error {
	stmt = strings.TrimSpace(stmt)
	_, err := q.db.Exec("INSERT INTO plans (stmt) VALUES (?)", stmt)
	return err
}

func moveFile(ctx context.Context, locker *redislock.Client, q *Query, uuid, dir string, size, fence int64) error {
	lock, err := locker.Obtain(ctx, "file:"+uuid, 30*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)

	if _, err := q.Exec(`  UPDATE file_info SET size = size + ? WHERE uuid = ?`, size, dir); err != nil { // want `Query.Exec \(UPDATE file_info\) writes to SQL database without a fencing token while the bsm/redislock lock taken by Client.Obtain \(line \d+\) is held`
		return err
	}
	if err := q.ExecUpper(`update file_info set parent = ? where uuid = ?`, dir, uuid); err != nil { // want `Query.ExecUpper \(UPDATE file_info\) writes to SQL database without a fencing token`
		return err
	}
	n, err := q.Exec(`
		UPDATE file_info SET parent = ?, fence = ? WHERE uuid = ? AND fence < ?`, dir, fence, uuid, fence)
	if err != nil {
		return err
	}
	if n == 0 {
		return errors.New("moved by a newer holder")
	}
	if _, err := q.Exec(`SELECT parent FROM file_info WHERE uuid = ?`, uuid); err != nil {
		return err
	}
	return q.Describe(`UPDATE file_info SET parent = NULL`) // want `Query.Describe \(DB.Exec \(INSERT plans\) at trimmed.go:\d+\) writes`
}
