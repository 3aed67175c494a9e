package postgres_test

// Hand-written fenced SQL of the shape fencegen generates. It exists to
// develop the suite before the generator's output does; it does not test
// fencegen.

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/fencecheck"
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/suite"
)

var errHandStale = errors.New("stale fencing token")
var errHandNotFound = errors.New("no such row")

type handStale struct {
	table   string
	current *int64
}

func (e *handStale) Error() string        { return "stale token for " + e.table }
func (e *handStale) Is(target error) bool { return target == errHandStale }

type handNotFound struct{}

func (e *handNotFound) Error() string        { return "no such row" }
func (e *handNotFound) Is(target error) bool { return target == errHandNotFound }

type handSpec struct {
	name, sqlName, key, value string
	nullable                  bool
	keyArgs                   func(int64) []any
	valueArg                  func(int64) any
}

func handStore(pool *pgxpool.Pool, cmp fencecheck.Comparison) suite.Store {
	op := "<="
	if cmp == fencecheck.Below {
		op = "<"
	}
	text := func(v int64) any { return strconv.FormatInt(v, 10) }
	num := func(v int64) any { return v }
	specs := []handSpec{
		{"docs", "docs", "id", "body", false, func(k int64) []any { return []any{k} }, text},
		{"notes", "notes", "id", "body", true, func(k int64) []any { return []any{k} }, text},
		{`"OrderLine"`, `"OrderLine"`, `line, "order"`, `"select"`, true, func(k int64) []any { return []any{int32(k), k * 10} }, text},
		{"settings", "public.settings", "name", "value", false, func(k int64) []any { return []any{fmt.Sprint("k", k)} }, text},
		{"app.settings", "app.settings", "name", "value", false, func(k int64) []any { return []any{fmt.Sprint("k", k)} }, num},
	}
	s := suite.Store{Cmp: cmp, Classify: classifyHand}
	for _, sp := range specs {
		s.Tables = append(s.Tables, handTable(pool, sp, op))
	}
	return s
}

func handTable(pool *pgxpool.Pool, sp handSpec, op string) suite.Table {
	keyCols := splitCols(sp.key)
	where := ""
	for i, c := range keyCols {
		if i > 0 {
			where += " AND "
		}
		where += fmt.Sprintf("%s = $%d", c, i+1)
	}
	n := len(keyCols)
	label := func(ctx context.Context, key []any) error {
		var fence *int64
		err := pool.QueryRow(ctx, "SELECT fence FROM "+sp.sqlName+" WHERE "+where, key...).Scan(&fence)
		if errors.Is(err, pgx.ErrNoRows) {
			return &handNotFound{}
		}
		if err != nil {
			return err
		}
		return &handStale{table: sp.name, current: fence}
	}
	exec := func(ctx context.Context, key []any, query string, args ...any) error {
		tag, err := pool.Exec(ctx, query, append(append([]any{}, key...), args...)...)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 1 {
			return nil
		}
		return label(ctx, key)
	}
	guard := fmt.Sprintf("(fence IS NULL OR fence %s $%d)", op, n+2)
	return suite.Table{
		Name:          sp.name,
		NullableFence: sp.nullable,
		Update: func(ctx context.Context, token, key, value int64) error {
			q := fmt.Sprintf("UPDATE %s SET %s = $%d, fence = $%d WHERE %s AND %s", sp.sqlName, sp.value, n+1, n+2, where, guard)
			return exec(ctx, sp.keyArgs(key), q, sp.valueArg(value), token)
		},
		Upsert: func(ctx context.Context, token, key, value int64) error {
			q := fmt.Sprintf("INSERT INTO %s AS t (%s, %s, fence) VALUES (%s, $%d, $%d) ON CONFLICT (%s) DO UPDATE SET %s = EXCLUDED.%s, fence = EXCLUDED.fence WHERE t.fence IS NULL OR t.fence %s EXCLUDED.fence",
				sp.sqlName, sp.key, sp.value, placeholders(n), n+1, n+2, sp.key, sp.value, sp.value, op)
			return exec(ctx, sp.keyArgs(key), q, sp.valueArg(value), token)
		},
		Delete: func(ctx context.Context, token, key int64) error {
			q := fmt.Sprintf("DELETE FROM %s WHERE %s AND (fence IS NULL OR fence %s $%d)", sp.sqlName, where, op, n+1)
			return exec(ctx, sp.keyArgs(key), q, token)
		},
		Read: func(ctx context.Context, key int64) (bool, int64, *int64, error) {
			var value string
			var fence *int64
			err := pool.QueryRow(ctx, "SELECT "+sp.value+"::text, fence FROM "+sp.sqlName+" WHERE "+where, sp.keyArgs(key)...).Scan(&value, &fence)
			if errors.Is(err, pgx.ErrNoRows) {
				return false, 0, nil, nil
			}
			if err != nil {
				return false, 0, nil, err
			}
			v, err := strconv.ParseInt(value, 10, 64)
			return true, v, fence, err
		},
		InsertUnfenced: func(ctx context.Context, key, value int64) error {
			q := fmt.Sprintf("INSERT INTO %s (%s, %s) VALUES (%s, $%d)", sp.sqlName, sp.key, sp.value, placeholders(n), n+1)
			_, err := pool.Exec(ctx, q, append(sp.keyArgs(key), sp.valueArg(value))...)
			return err
		},
	}
}

func classifyHand(err error) suite.Verdict {
	var v suite.Verdict
	var stale *handStale
	var nf *handNotFound
	v.IsStale = errors.Is(err, errHandStale)
	if errors.As(err, &stale) {
		v.AsStale, v.Current, v.StaleTable = true, stale.current, stale.table
	}
	v.IsNotFound = errors.Is(err, errHandNotFound)
	v.AsNotFound = errors.As(err, &nf)
	return v
}

func splitCols(s string) []string {
	var out []string
	for _, c := range []string{s} {
		for _, p := range splitComma(c) {
			out = append(out, p)
		}
	}
	return out
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			p := s[start:i]
			for len(p) > 0 && p[0] == ' ' {
				p = p[1:]
			}
			out = append(out, p)
			start = i + 1
		}
	}
	return out
}

func placeholders(n int) string {
	s := ""
	for i := 1; i <= n; i++ {
		if i > 1 {
			s += ", "
		}
		s += fmt.Sprintf("$%d", i)
	}
	return s
}
