package sqlite_test

import (
	"strconv"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/suite"
)

// tables are plain-SQL views of the fenced tables in ../schema/sqlite.sql.
// The suite's number k is the key: id k; OrderLine's (line k, order k+1000);
// a settings name "k<k>".
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
			Select:         `SELECT "select", fence FROM "OrderLine" WHERE line = ? AND "order" = ?`,
			InsertUnfenced: `INSERT INTO "OrderLine" (line, "order", "select") VALUES (?, ?, ?)`,
			Key:            func(k int64) []any { return []any{k, k + 1000} }, Value: suite.Text,
		},
		{
			Name: "Quoted Docs", GoName: "QuotedDoc", KeyFields: []string{"DocID"}, ValueField: "TheBody",
			NullableFence:  true,
			Select:         "SELECT `the body`, fence FROM [Quoted Docs] WHERE [doc id] = ?",
			InsertUnfenced: "INSERT INTO [Quoted Docs] ([doc id], `the body`) VALUES (?, ?)",
			Key:            id, Value: suite.Text,
		},
		{
			Name: "settings", GoName: "Setting", KeyFields: []string{"Name"}, ValueField: "Value",
			Select: "SELECT CAST(value AS TEXT), fence FROM settings WHERE name = ?",
			Key:    func(k int64) []any { return []any{"k" + strconv.FormatInt(k, 10)} }, Value: suite.Int,
		},
	}
}
