package lease

import (
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Applications send SQL through helpers of their own:
//
//	func (s *Store) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
//		return s.db.ExecContext(ctx, q, args...)
//	}
//
// A function that passes one of its parameters on as the SQL text of a
// database call gets a SQLParamFact, and a call to it is read as that
// database call: the text at the parameter is folded and parsed where the
// helper is called (a write, an advisory lock, a fence), with the helper's
// args parameter as the statement's arguments.

// SQLParamFact: the function sends the SQL text of parameter Query
// (receiver excluded) to a database, as one statement.
type SQLParamFact struct {
	System System
	Query  int // the parameter holding the SQL text
	Args   int // the parameter holding the statement's arguments (args ...any), or -1
	// Format, when not 0, says the function formats the text of Query with
	// a printf-like formatter (sqlformat.go) whose verbs the values of
	// parameter Format-1 fill; no argument is bound then (Args is -1).
	Format int
	// Exec says the statement's result carries a rows-affected count
	// (Exec, ExecContext). Result is the helper's result that returns it
	// to the caller (-1 if none); Checked says the helper reads it itself.
	Exec    bool
	Result  int
	Checked bool
	What    string // the database call: "DB.ExecContext at store.go:12"
}

func (*SQLParamFact) AFact() {}
func (f *SQLParamFact) String() string {
	return fmt.Sprintf("sql param %d args %d format %d exec %v result %d checked %v: %s", f.Query, f.Args, f.Format, f.Exec, f.Result, f.Checked, f.What)
}

// sqlHelper returns the catalog row standing for a call to fn when fn is
// a SQL helper (a SQLParamFact, local or imported), or nil.
func (b *builder) sqlHelper(fn *types.Func) *API {
	var f SQLParamFact
	if !b.fact(fn, &f) {
		return nil
	}
	if api := b.shaped[fn]; api != nil && api.Arg == f.Query && api.System == f.System {
		return api
	}
	api := &API{Name: fn.Name(), Role: RoleWrite, System: f.System, Fence: SQLQuery, Arg: f.Query}
	b.shaped[fn] = api
	return api
}

// helperFact returns the SQLParamFact of the function a call invokes.
func (b *builder) helperFact(c *ssa.CallCommon) (SQLParamFact, bool) {
	var f SQLParamFact
	fn := calleeFunc(c)
	return f, fn != nil && b.fact(fn, &f)
}

// sqlArgsAt returns the argument index of the statement's arguments in a
// call to a SQL API: after the query for database/sql and pgx, the
// helper's args parameter for a helper (-1: none to read).
func (b *builder) sqlArgsAt(c *ssa.CallCommon, api *API) int {
	if f, ok := b.helperFact(c); ok {
		return f.Args
	}
	return api.Arg + 1
}

// uncheckedResult reports whether a SQL call's rows-affected count is
// never read: an Exec whose result nobody uses, or a helper that neither
// reads the count nor returns it to a caller that does.
func (b *builder) uncheckedResult(call ssa.CallInstruction) bool {
	if f, ok := b.helperFact(call.Common()); ok {
		return f.Exec && !f.Checked && (f.Result < 0 || !resultUsedAt(call, f.Result))
	}
	if tf, ok := b.templateFact(call.Common()); ok {
		return templateUnchecked(tf, call)
	}
	return isExec(call) && !resultUsed(call)
}

// deriveSQLHelpers records a SQLParamFact for each function of the package
// that sends a parameter as SQL text, helpers of helpers included.
func (b *builder) deriveSQLHelpers() {
	for range len(b.funcs) + 1 {
		changed := false
		for _, fn := range b.funcs {
			obj := declaredFunc(fn)
			if obj == nil || b.ix.knowsPath(b.pass.Pkg.Path()) {
				continue
			}
			if f, ok := b.helperOf(fn); ok {
				var old SQLParamFact
				if !b.fact(obj, &old) || old != f {
					b.setLocal(obj, &f)
					changed = true
				}
			}
		}
		if !changed {
			return
		}
	}
}

// helperOf returns the SQLParamFact fn deserves: the first database call
// (or helper call) in fn whose SQL text is one of fn's parameters.
func (b *builder) helperOf(fn *ssa.Function) (SQLParamFact, bool) {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			c, ok := b.resolve(call.Common())
			if !ok || c.api == nil || c.api.Fence != SQLQuery {
				continue
			}
			query := arg(call.Common(), c.api.Arg)
			q, format := paramIndex(fn, query), -1
			if q < 0 {
				var ok bool
				if q, format, ok = b.formattedParam(fn, query); !ok {
					continue
				}
			}
			f := SQLParamFact{System: c.api.System, Query: q, Args: -1, Result: -1, What: b.describeCall(call, c)}
			inner, isHelper := b.helperFact(call.Common())
			if isHelper && inner.Format > 0 { // a formatting helper's: its arguments must be fn's
				if format = paramIndex(fn, arg(call.Common(), inner.Format-1)); format < 0 {
					continue
				}
			}
			if format >= 0 {
				f.Format = format + 1
			} else if at := b.sqlArgsAt(call.Common(), c.api); at >= 0 {
				f.Args = paramIndex(fn, arg(call.Common(), at))
			}
			resultAt := 0
			switch {
			case isHelper:
				f.Exec, f.Checked, resultAt = inner.Exec, inner.Checked, inner.Result
			default:
				f.Exec = isExec(call)
			}
			if f.Exec && !f.Checked && resultAt >= 0 {
				f.Result = returnedAt(fn, call, resultAt)
				f.Checked = f.Result < 0 && resultUsedAt(call, resultAt)
			}
			return f, true
		}
	}
	return SQLParamFact{}, false
}

// describeCall names a database call and where it is: "DB.ExecContext at store.go:12".
func (b *builder) describeCall(call ssa.CallInstruction, c callee) string {
	w := &Write{Pos: call.Pos(), What: c.what}
	return b.describeWrite(w)
}

// paramIndex returns the index (receiver excluded) of the parameter of fn
// that v is, or -1.
func paramIndex(fn *ssa.Function, v ssa.Value) int {
	p, ok := unwrap(v).(*ssa.Parameter)
	if !ok {
		return -1
	}
	i := slices.Index(fn.Params, p)
	if i >= 0 && fn.Signature.Recv() != nil {
		i--
	}
	return i
}

// returnedAt returns the index of fn's result that returns result i of
// call, or -1.
func returnedAt(fn *ssa.Function, call *ssa.Call, i int) int {
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for k, r := range ret.Results {
			if resultOf(r, call, i) {
				return k
			}
		}
	}
	return -1
}

// resultOf reports whether v is result i of call.
func resultOf(v ssa.Value, call *ssa.Call, i int) bool {
	switch x := unwrap(v).(type) {
	case *ssa.Call:
		return x == call && i == 0
	case *ssa.Extract:
		return x.Tuple == call && x.Index == i
	}
	return false
}

// resultUsedAt reports whether result i of call is used.
func resultUsedAt(call ssa.CallInstruction, i int) bool {
	v, ok := call.(*ssa.Call)
	if !ok {
		return false
	}
	if isGormDB(v.Type()) {
		return i == 0 && gormCountRead(v)
	}
	if _, isTuple := v.Type().(*types.Tuple); !isTuple {
		return i == 0 && len(*v.Referrers()) > 0
	}
	for _, ref := range *v.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == i && len(*ex.Referrers()) > 0 {
			return true
		}
	}
	return false
}
