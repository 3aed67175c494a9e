// Package exec is a stub of github.com/doug-martin/goqu/v9/exec v9.19.0 for
// analysistest fixtures: real signatures, no behaviour.
package exec

import (
	"context"
	gsql "database/sql"
)

type QueryExecutor struct{}

func (q QueryExecutor) Exec() (gsql.Result, error)                           { return nil, nil }
func (q QueryExecutor) ExecContext(ctx context.Context) (gsql.Result, error) { return nil, nil }
func (q QueryExecutor) ScanVal(i interface{}) (bool, error)                  { return false, nil }
