// Package dbcl is reduced from magicpool's dbcl: its helpers format each
// statement at run time from the table name and column lists their
// callers pass, and send it with sqlx's NamedExec through the
// application's Querier.
package dbcl

import (
	"database/sql"
	"fmt"
	"log"
	"strings"
)

// Querier is the pool or a transaction.
type Querier interface {
	NamedExec(query string, arg interface{}) (sql.Result, error)
}

func prepareNamedInsert(table string, columns []string) string {
	names := make([]string, len(columns))
	for i, column := range columns {
		names[i] = ":" + column
		columns[i] = "`" + column + "`"
	}
	keys := strings.Join(columns, ", ")
	values := strings.Join(names, ", ")
	return fmt.Sprintf("INSERT INTO `%s`(%s) VALUES (%s);", table, keys, values)
}

func prepareNamedInsertUpdateWithOperator(table string, insertCols, updateCols []string, operator string) string {
	names := make([]string, len(insertCols))
	for i, col := range insertCols {
		names[i] = ":" + col
		insertCols[i] = "`" + col + "`"
	}
	keys := strings.Join(insertCols, ", ")
	values := strings.Join(names, ", ")
	updateParts := make([]string, len(updateCols))
	for i, col := range updateCols {
		updateParts[i] = fmt.Sprintf("%s = %s %s VALUES(%s)", col, col, operator, col)
	}
	update := strings.Join(updateParts, ", ")
	return fmt.Sprintf("INSERT INTO `%s`(%s) VALUES (%s) ON DUPLICATE KEY UPDATE %s;", table, keys, values, update)
}

// prepareNamedUpdate joins the WHERE clause from the caller's columns
// only when it gets some: the condition is chosen at run time.
func prepareNamedUpdate(table string, updateCols, whereCols []string) string {
	updateParts := make([]string, len(updateCols))
	for i, column := range updateCols {
		updateParts[i] = fmt.Sprintf("%s = :%s", column, column)
	}
	where := ""
	if len(whereCols) > 0 {
		whereParts := make([]string, len(whereCols))
		for i, column := range whereCols {
			whereParts[i] = fmt.Sprintf("%s = :%s", column, column)
		}
		where = "WHERE " + strings.Join(whereParts, " AND ")
	}
	return fmt.Sprintf("UPDATE `%s` SET %s %s;", table, strings.Join(updateParts, ", "), where)
}

// prepareFirstColumns names the columns up to the first empty one: the
// loop can leave early, so the list is not followed.
func prepareFirstColumns(table string, columns []string) string {
	names := make([]string, len(columns))
	for i, column := range columns {
		if column == "" {
			break
		}
		names[i] = ":" + column
	}
	return fmt.Sprintf("INSERT INTO `%s`(%s) VALUES (%s);", table, strings.Join(columns, ", "), strings.Join(names, ", "))
}

func execBulk(q Querier, query string, objects []interface{}) error {
	for i := 0; i < len(objects); i += 1000 {
		if _, err := q.NamedExec(query, objects[i:min(i+1000, len(objects))]); err != nil {
			return err
		}
	}
	return nil
}

// ExecInsert inserts one object.
func ExecInsert(q Querier, table string, cols []string, object interface{}) error {
	_, err := q.NamedExec(prepareNamedInsert(table, cols), object)
	return err
}

// ExecBulkInsert inserts the objects in batches.
func ExecBulkInsert(q Querier, table string, cols []string, objects []interface{}) error {
	return execBulk(q, prepareNamedInsert(table, cols), objects)
}

// ExecBulkInsertUpdateAdd adds updateCols to the rows already there.
func ExecBulkInsertUpdateAdd(q Querier, table string, insertCols, updateCols []string, objects []interface{}) error {
	return execBulk(q, prepareNamedInsertUpdateWithOperator(table, insertCols, updateCols, "+"), objects)
}

// ExecUpdate updates the rows whereCols select.
func ExecUpdate(q Querier, table string, updateCols, whereCols []string, obj interface{}) error {
	_, err := q.NamedExec(prepareNamedUpdate(table, updateCols, whereCols), obj)
	return err
}

// ExecInsertFirst inserts the columns up to the first empty name.
func ExecInsertFirst(q Querier, table string, cols []string, object interface{}) error {
	_, err := q.NamedExec(prepareFirstColumns(table, cols), object)
	return err
}

// ExecInsertAudited inserts the object and appends an audit row: two
// writes, so a call is not read as the first statement alone.
func ExecInsertAudited(q Querier, table string, cols []string, object interface{}) error {
	if _, err := q.NamedExec(prepareNamedInsert(table, cols), object); err != nil {
		return err
	}
	_, err := q.NamedExec("INSERT INTO audit (note) VALUES (:note)", object)
	return err
}

// ExecInsertLogged logs a failed insert and carries on: its callers never
// learn that the row was there already.
func ExecInsertLogged(q Querier, table string, cols []string, object interface{}) error {
	if _, err := q.NamedExec(prepareNamedInsert(table, cols), object); err != nil {
		log.Printf("insert into %s: %v", table, err)
	}
	return nil
}
