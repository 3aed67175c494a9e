package mariadb_test

import (
	"strconv"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/suite"
)

// tables are plain-SQL views of the fenced tables in ../schema/mysql.sql. The
// suite's number k is the key: id k; OrderLine's (line k, order k+1000); a
// settings name "k<k>".
func tables() []suite.RawTable {
	id := func(k int64) []any { return []any{k} }
	return []suite.RawTable{
		{
			Name: "docs", GoName: "Doc", KeyFields: []string{"ID"}, ValueField: "Body",
			Select: "SELECT body, fence FROM docs WHERE id = ?",
			Key:    id, Value: suite.Text,
		},
		{
			Name: "notes", GoName: "Note", KeyFields: []string{"ID"}, ValueField: "Body",
			NullableFence:  true,
			Select:         "SELECT body, fence FROM notes WHERE id = ?",
			InsertUnfenced: "INSERT INTO notes (id, body) VALUES (?, ?)",
			Key:            id, Value: suite.Text,
		},
		{
			Name: "OrderLine", GoName: "OrderLine", KeyFields: []string{"Line", "Order"}, ValueField: "Select",
			NullableFence:  true,
			Select:         "SELECT `select`, fence FROM `OrderLine` WHERE line = ? AND `order` = ?",
			InsertUnfenced: "INSERT INTO `OrderLine` (line, `order`, `select`) VALUES (?, ?, ?)",
			Key:            func(k int64) []any { return []any{int32(k), k + 1000} }, Value: suite.Text,
		},
		{
			Name: "settings", GoName: "Setting", KeyFields: []string{"Name"}, ValueField: "Value",
			Select: "SELECT CAST(value AS CHAR), fence FROM settings WHERE name = ?",
			Key:    func(k int64) []any { return []any{"k" + strconv.FormatInt(k, 10)} }, Value: suite.Int,
		},
	}
}
