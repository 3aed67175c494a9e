package suite

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
)

// RawTable is the plain-SQL side of a fenced table: how the suite reads a row
// back and inserts an unfenced one, independently of the code under test.
type RawTable struct {
	Name          string // as the generated StaleError names it
	NullableFence bool
	// Select reads the value as text and the fence, given the key arguments.
	Select string
	// InsertUnfenced inserts a row with a NULL fence, given the key arguments
	// then the value; empty when the fence is NOT NULL.
	InsertUnfenced string
	// Key and Value turn the suite's numbers into the table's column values.
	Key   func(key int64) []any
	Value func(value int64) any

	// How the generated package names the table: its methods are
	// Update<GoName> and so on, and its params structs hold the key in
	// KeyFields (in the order Key returns them) and the value in ValueField.
	GoName     string
	KeyFields  []string
	ValueField string
}

// Ops are a generated package's writes for one table, adapted to the
// suite's numbers.
type Ops struct {
	Update func(ctx context.Context, token, key, value int64) error
	Upsert func(ctx context.Context, token, key, value int64) error
	Delete func(ctx context.Context, token, key int64) error
}

// Bind joins the generated writes with the plain-SQL reads on db.
func (r RawTable) Bind(db *sql.DB, ops Ops) Table {
	t := Table{
		Name:          r.Name,
		NullableFence: r.NullableFence,
		Update:        ops.Update,
		Upsert:        ops.Upsert,
		Delete:        ops.Delete,
		Read: func(ctx context.Context, key int64) (bool, int64, *int64, error) {
			var value string
			var fence sql.NullInt64
			err := db.QueryRowContext(ctx, r.Select, r.Key(key)...).Scan(&value, &fence)
			if errors.Is(err, sql.ErrNoRows) {
				return false, 0, nil, nil
			}
			if err != nil {
				return false, 0, nil, err
			}
			v, err := strconv.ParseInt(value, 10, 64)
			if !fence.Valid {
				return true, v, nil, err
			}
			return true, v, &fence.Int64, err
		},
	}
	if r.InsertUnfenced != "" {
		t.InsertUnfenced = func(ctx context.Context, key, value int64) error {
			_, err := db.ExecContext(ctx, r.InsertUnfenced, append(r.Key(key), r.Value(value))...)
			return err
		}
	}
	return t
}

// Text stores a suite value in a text column.
func Text(v int64) any { return strconv.FormatInt(v, 10) }

// Int stores a suite value in an integer column.
func Int(v int64) any { return v }
