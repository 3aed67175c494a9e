package postgres_test

import (
	"strconv"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/suite"
)

// tables are plain-SQL views of the fenced tables in ../schema/postgresql.sql.
// The suite's number k is the key: id k; OrderLine's (line k, order
// k+1000); a settings name "k<k>".
func tables() []suite.RawTable {
	id := func(k int64) []any { return []any{k} }
	name := func(k int64) []any { return []any{"k" + strconv.FormatInt(k, 10)} }
	return []suite.RawTable{
		{
			Name: "docs", GoName: "Doc", KeyFields: []string{"ID"}, ValueField: "Body",
			Select: "SELECT body, fence FROM docs WHERE id = $1",
			Key:    id, Value: suite.Text,
		},
		{
			Name: "notes", GoName: "Note", KeyFields: []string{"ID"}, ValueField: "Body",
			NullableFence:  true,
			Select:         "SELECT body, fence FROM notes WHERE id = $1",
			InsertUnfenced: "INSERT INTO notes (id, body) VALUES ($1, $2)",
			Key:            id, Value: suite.Text,
		},
		{
			Name: "OrderLine", GoName: "OrderLine", KeyFields: []string{"Line", "Order"}, ValueField: "Select",
			NullableFence:  true,
			Select:         `SELECT "select", fence FROM "OrderLine" WHERE line = $1 AND "order" = $2`,
			InsertUnfenced: `INSERT INTO "OrderLine" (line, "order", "select") VALUES ($1, $2, $3)`,
			Key:            func(k int64) []any { return []any{int32(k), k + 1000} }, Value: suite.Text,
		},
		{
			Name: "settings", GoName: "Setting", KeyFields: []string{"Name"}, ValueField: "Value",
			Select: "SELECT value, fence FROM public.settings WHERE name = $1",
			Key:    name, Value: suite.Text,
		},
		{
			Name: "app.settings", GoName: "AppSetting", KeyFields: []string{"Name"}, ValueField: "Value",
			Select: "SELECT value::text, fence FROM app.settings WHERE name = $1",
			Key:    name, Value: suite.Int,
		},
	}
}
