package lease

import (
	"fmt"
	"go/token"
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
// args parameter as the statement's arguments. The database call may be
// in a closure the helper runs (a transaction or retry helper's func
// literal), reading the parameter it captured.
//
// A helper may take a list of statements and execute each element:
//
//	func RetryableTransaction(ctx context.Context, db *sql.DB, stmts ...string) error {
//		return retry(func() error {
//			for _, stmt := range stmts {
//				if _, err := trx.ExecContext(ctx, stmt); err != nil { ... }
//			}
//		})
//	}
//
// Its fact says so (SQLParamFact.Each), and a call is read statement by
// statement (stmtsWrite): each element of the list the call passes is a
// statement of its own, and the call is a write as weak as its weakest.

// SQLParamFact: the function sends the SQL text of parameter Query
// (receiver excluded) to a database, as one statement.
type SQLParamFact struct {
	System System
	Query  int // the parameter holding the SQL text
	// Each says Query is a list ([]string, ...string) whose elements are
	// executed one by one, each as one statement; Args and Format are
	// then unset.
	Each bool
	Args int // the parameter holding the statement's arguments (args ...any), or -1
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
	// Session: as in SQLTemplateFact.
	Session int
}

func (*SQLParamFact) AFact() {}
func (f *SQLParamFact) String() string {
	each := ""
	if f.Each {
		each = " each"
	}
	return fmt.Sprintf("sql param %d%s args %d format %d exec %v result %d checked %v: %s", f.Query, each, f.Args, f.Format, f.Exec, f.Result, f.Checked, f.What)
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
// (or helper call), in fn or in a closure it runs, whose SQL text is one of
// fn's parameters, or each element of a list parameter that a range loop
// reads.
func (b *builder) helperOf(fn *ssa.Function) (SQLParamFact, bool) {
	for _, body := range ranBodies(fn) {
		for _, blk := range body.Blocks {
			for _, instr := range blk.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if f, ok := b.helperCall(fn, body, call); ok {
					return f, true
				}
			}
		}
	}
	return SQLParamFact{}, false
}

// helperCall returns the SQLParamFact fn deserves for call, a call in body
// (fn or a closure fn runs), when call's SQL text is one of fn's parameters.
func (b *builder) helperCall(fn, body *ssa.Function, call *ssa.Call) (SQLParamFact, bool) {
	c, ok := b.resolve(call.Common())
	if !ok || c.api == nil || c.api.Fence != SQLQuery {
		return SQLParamFact{}, false
	}
	query := throughSameStatement(arg(call.Common(), c.api.Arg))
	inner, isHelper := b.helperFact(call.Common())
	q, each, format := -1, false, -1
	switch {
	case isHelper && inner.Each:
		q, each = passedStmts(fn, query)
	default:
		if q = closureParam(fn, query); q < 0 {
			q, each = rangedParam(fn, query)
		}
		if q < 0 && body == fn {
			var ok bool
			if q, format, ok = b.formattedParam(fn, query); !ok {
				q = -1
			}
		}
	}
	if q < 0 {
		return SQLParamFact{}, false
	}
	f := SQLParamFact{System: c.api.System, Query: q, Each: each, Args: -1, Result: -1, What: b.describeCall(call, c)}
	f.Session, _ = sessionSource(fn, b.callSQLSession(call))
	if isHelper && inner.Format > 0 { // a formatting helper's: its arguments must be fn's
		if format = closureParam(fn, arg(call.Common(), inner.Format-1)); format < 0 {
			return SQLParamFact{}, false
		}
	}
	switch {
	case each:
	case format >= 0:
		f.Format = format + 1
	default:
		if at := b.sqlArgsAt(call.Common(), c.api); at >= 0 {
			f.Args = closureParam(fn, arg(call.Common(), at))
		}
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

// ranBodies returns fn and the closures it runs: those it calls, defers,
// starts or passes to a call (a transaction or retry helper's func), at
// any depth; not one it returns or stores, which runs out of its sight.
func ranBodies(fn *ssa.Function) []*ssa.Function {
	bodies := []*ssa.Function{fn}
	for i := 0; i < len(bodies) && i < maxFoldDepth; i++ {
		for _, anon := range bodies[i].AnonFuncs {
			if closureRun(anon) {
				bodies = append(bodies, anon)
			}
		}
	}
	return bodies
}

// closureRun reports whether every value made of the anonymous function
// anon is called or passed to a call where it is made.
func closureRun(anon *ssa.Function) bool {
	refs := anon.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, ref := range *refs {
		v := ssa.Value(anon)
		if mc, ok := ref.(*ssa.MakeClosure); ok {
			v, ref = mc, nil
			if len(*mc.Referrers()) == 0 {
				return false
			}
			for _, r := range *mc.Referrers() {
				if !runsValue(r, v) {
					return false
				}
			}
			continue
		}
		if !runsValue(ref, v) {
			return false
		}
	}
	return true
}

// runsValue reports whether instr calls the func value v or passes it to a
// call.
func runsValue(instr ssa.Instruction, v ssa.Value) bool {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return false
	}
	c := call.Common()
	return c.Value == v || slices.Contains(c.Args, v)
}

// closureParam returns the index (receiver excluded) of the parameter of
// fn that v is, also when v is read in a closure fn runs from the variable
// the closure captured (a parameter captured is kept in a cell the closure
// loads; nothing may store into it but its first value), or -1.
func closureParam(fn *ssa.Function, v ssa.Value) int {
	v = unwrap(v)
	for range maxFoldDepth {
		load, ok := v.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			break
		}
		cell := load.X
		for range maxFoldDepth {
			fv, ok := cell.(*ssa.FreeVar)
			if !ok {
				break
			}
			cell = freeVarBinding(fv)
		}
		alloc, ok := cell.(*ssa.Alloc)
		if !ok || alloc.Parent() != fn {
			return -1
		}
		v = unwrap(storedOnce(alloc))
	}
	return paramIndex(fn, v)
}

// rangedParam reads a statement that is an element of a list parameter of
// fn: a load of list[i] in a range loop over the list. It returns the
// list's parameter index and true, or -1.
func rangedParam(fn *ssa.Function, v ssa.Value) (int, bool) {
	load, ok := unwrap(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return -1, false
	}
	ia, ok := load.X.(*ssa.IndexAddr)
	if !ok || !rangeIndex(ia) || !isStringList(ia.X.Type()) {
		return -1, false
	}
	if i := closureParam(fn, ia.X); i >= 0 {
		return i, true
	}
	return -1, false
}

// rangeIndex reports whether ia indexes its list with the index of a
// range loop over that list: counted from 0 by one while below len(list).
func rangeIndex(ia *ssa.IndexAddr) bool {
	inc, ok := ia.Index.(*ssa.BinOp)
	if !ok || inc.Op != token.ADD {
		return false
	}
	if n, ok := constInt(inc.Y); !ok || n != 1 {
		return false
	}
	phi, ok := inc.X.(*ssa.Phi)
	if !ok || phi.Block() != inc.Block() {
		return false
	}
	for _, e := range phi.Edges {
		if e == inc {
			continue
		}
		if n, ok := constInt(e); !ok || n != -1 {
			return false
		}
	}
	head := inc.Block()
	cond, ok := head.Instrs[len(head.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cmp, ok := cond.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.LSS || cmp.X != inc {
		return false
	}
	n, ok := cmp.Y.(*ssa.Call)
	return ok && isLen(n.Common()) && n.Common().Args[0] == ia.X
}

// isStringList reports whether t is a slice of strings.
func isStringList(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	e, ok := s.Elem().Underlying().(*types.Basic)
	return ok && e.Info()&types.IsString != 0
}

// passedStmts reads the list of statements fn passes to a helper that
// executes each: fn's own list parameter passed on (stmts...), or one of
// its parameters as the only statement.
func passedStmts(fn *ssa.Function, list ssa.Value) (param int, each bool) {
	if i := closureParam(fn, list); i >= 0 {
		return i, true
	}
	if elems, ok := literalElems(list); ok && len(elems) == 1 {
		return closureParam(fn, elems[0]), false
	}
	return -1, false
}

// sameStatement reports whether a call of fn returns the text of its first
// argument with only surrounding space or letter case changed
// (strings.TrimSpace, ToUpper, ToLower): as SQL, the same statement.
func sameStatement(fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Pkg().Path() != "strings" {
		return false
	}
	switch fn.Name() {
	case "TrimSpace", "ToUpper", "ToLower":
		return true
	}
	return false
}

// throughSameStatement returns the text v is made from by sameStatement
// calls (a helper's q = strings.TrimSpace(q) before it executes q), or v.
func throughSameStatement(v ssa.Value) ssa.Value {
	for {
		call, ok := unwrap(v).(*ssa.Call)
		if !ok {
			return v
		}
		fn := calleeFunc(call.Common())
		if fn == nil || !sameStatement(fn) {
			return v
		}
		v = arg(call.Common(), 0)
	}
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
