package suite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/fencecheck"
)

// Generated describes one generated package bound to a database: its
// *Fenced value and how to classify its errors.
type Generated struct {
	Cmp      fencecheck.Comparison
	Fenced   any // the package's *Fenced
	TokenOf  any // the package's TokenOf: func(int64) Token
	Classify func(error) Verdict
}

// NewStore binds the generated writes of every table in tables to
// plain-SQL reads on db.
func NewStore(g Generated, db *sql.DB, tables []RawTable) Store {
	s := Store{Cmp: g.Cmp, Classify: g.Classify}
	for _, r := range tables {
		s.Tables = append(s.Tables, r.Bind(db, methodOps(g.Fenced, g.TokenOf, r)))
	}
	return s
}

// Classifier returns the Classify function of a generated package, given
// its sentinel errors and a way to read its *StaleError. The type
// parameters are the package's *StaleError and *NotFoundError, so the
// errors.As checks are the ones a user of the package would write.
func Classifier[S, N error](errStale, errNotFound error, staleFields func(S) (table string, current *int64)) func(error) Verdict {
	return func(err error) Verdict {
		var v Verdict
		var stale S
		var notFound N
		v.IsStale = errors.Is(err, errStale)
		if errors.As(err, &stale) {
			v.AsStale = true
			v.StaleTable, v.Current = staleFields(stale)
		}
		v.IsNotFound = errors.Is(err, errNotFound)
		v.AsNotFound = errors.As(err, &notFound)
		return v
	}
}

// Int64 converts a generated *Token to *int64.
func Int64[T interface{ Int64() int64 }](p *T) *int64 {
	if p == nil {
		return nil
	}
	v := (*p).Int64()
	return &v
}

// tokenValue makes the package's Token for n through its TokenOf.
func tokenValue(tokenOf any, n int64) reflect.Value {
	return reflect.ValueOf(tokenOf).Call([]reflect.Value{reflect.ValueOf(n)})[0]
}

// methodOps adapts the generated methods Update<GoName>, Upsert<GoName> and
// Delete<GoName> of fenced to the suite's numbers. It goes through
// reflection so one adapter serves every generated package (each has its own
// Token and params types); the methods called are the generated ones, and a
// method or field the contract promises but the package lacks fails the
// test with its name.
func methodOps(fenced, tokenOf any, r RawTable) Ops {
	call := func(ctx context.Context, op string, token int64, fields map[string]any) error {
		m := reflect.ValueOf(fenced).MethodByName(op + r.GoName)
		if !m.IsValid() {
			return fmt.Errorf("generated package has no method %s%s", op, r.GoName)
		}
		params := reflect.New(m.Type().In(2)).Elem()
		for name, value := range fields {
			field := params.FieldByName(name)
			if !field.IsValid() {
				return fmt.Errorf("%s%sParams has no field %s", op, r.GoName, name)
			}
			v := reflect.ValueOf(value)
			if !v.CanConvert(field.Type()) {
				return fmt.Errorf("%s%sParams.%s is %s, not %T", op, r.GoName, name, field.Type(), value)
			}
			field.Set(v.Convert(field.Type()))
		}
		out := m.Call([]reflect.Value{reflect.ValueOf(ctx), tokenValue(tokenOf, token), params})
		err, _ := out[0].Interface().(error)
		return err
	}
	keyFields := func(key int64) map[string]any {
		fields := make(map[string]any)
		for i, v := range r.Key(key) {
			fields[r.KeyFields[i]] = v
		}
		return fields
	}
	withValue := func(key, value int64) map[string]any {
		fields := keyFields(key)
		fields[r.ValueField] = r.Value(value)
		return fields
	}
	return Ops{
		Update: func(ctx context.Context, token, key, value int64) error {
			return call(ctx, "Update", token, withValue(key, value))
		},
		Upsert: func(ctx context.Context, token, key, value int64) error {
			return call(ctx, "Upsert", token, withValue(key, value))
		},
		Delete: func(ctx context.Context, token, key int64) error {
			return call(ctx, "Delete", token, keyFields(key))
		},
	}
}
