package lease

import (
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// Writes that need no fencing token, by documented rules (unfencedwrite's
// -explain states them; sqlscan reads the shapes):
//   - an INSERT that only creates a row that is not there (ON CONFLICT DO
//     NOTHING, INSERT IGNORE, INSERT ... WHERE NOT EXISTS a row with the
//     same key) is idempotent: a stale holder's copy changes nothing;
//   - an UPDATE with optimistic concurrency (SET version = version + 1
//     WHERE ... AND version = $n, or SET version = :version WHERE ... AND
//     version = :version - 1) is a compare-and-set when the version is one
//     the writer holds from a read, made in the same function while the
//     lease was held or by its caller (passed in, alone or in the row the
//     caller read and edited), and the rows-affected count is checked: a
//     stale holder's version no longer matches once another holder wrote;
//   - an UPDATE that moves a state column of the rows a key pins only from
//     the values its WHERE clause requires (SET state = 'created' WHERE id
//     = $1 AND state IN ('creating', 'created')) is a compare-and-set on
//     the row's state when the state is the only column it sets (setting
//     the state a row already holds changes nothing), or the state set is
//     a constant none of the required ones equals (a row another holder
//     moved on fails the condition, so the other columns land nowhere),
//     or the state set is a constant and every other column it sets is
//     stamped with the store's clock (updated_at = now()), whatever state
//     it requires (a value the holder read: a row still in the state set
//     gets only a newer stamp). A one-table DELETE whose WHERE clause
//     only holds columns to values, one to constant states that end a
//     row's life (terminalState) and another to values the holder binds (WHERE id = $1 AND status =
//     'PENDING_DELETE'), is the transition out of every state. A
//     transition without a key whose other conditions select rows only by
//     age (SET status = 'offline' WHERE status = 'online' AND
//     last_heartbeat < $1, a time) is one too: a stale holder's older
//     bound moves only rows older still, which the next holder moves
//     alike, and a row that entered the state since is younger. These
//     assume rows move forward: a state once left is not entered again.
//     The write is safe by itself whether or not its rows-affected count
//     is read (a 0-row no-op means another holder already moved the row);
//     only a checked count makes it a compare-and-set that fences the
//     writes after it (casfence.go);
//   - a set-based UPDATE over other tables that binds no value, writes
//     only literals, the other tables' columns or the store's clock (never
//     a column's own value: no n = n + 1), and filters the other tables'
//     rows by their own columns (sqlscan's Derived) carries nothing from
//     the holder's memory: what it changes follows from the rows as they
//     are when it runs, so a stale holder's copy does what the next
//     holder's would;
//   - an UPDATE of every row of its table (no WHERE clause) that binds
//     no value and sets each column to 0 (UPDATE users SET usage_count =
//     0; a MongoDB UpdateMany with an empty filter that $sets counters to
//     0) is a reset of counters that carries nothing from the holder's
//     memory, neither which rows nor what values: a stale holder's copy
//     is the same reset run late (other constants, SET owner = NULL, can
//     undo what the next holder assigned; see sqlscan's Reset);
//   - a DELETE of rows selected only by age or expiry, or by age among
//     the rows a key pins, is idempotent: what expired stays expired;
//   - a tombstone, an UPDATE that only sets soft-delete flags to true
//     (is_deleted, deleted; not archived, undone by an unarchive) on the rows its
//     keys pin (UPDATE queue SET is_deleted = $1 WHERE queue_name = $2
//     AND item = $3, $1 true), is idempotent: a row marked deleted is
//     not marked live again, so the stale holder's copy changes nothing.
//     A flag pinned true in a DELETE's keys (WHERE object_key = $1 AND
//     is_deleted = TRUE) is such a terminal state too;
//   - an upsert whose DO UPDATE applies only where the row differs from
//     the definition inserted, and whose definition is constant, writes
//     what every holder writes (sqlconverge.go);
//   - a write to the database server's own schemas (MySQL's
//     performance_schema, mysql and sys; PostgreSQL's pg_catalog) sets up
//     the server, not data a lease guards.

// A countUse says what a rule needs of a write's rows-affected count.
type countUse uint8

const (
	countIgnored  countUse = iota // safe whatever the count says
	countGates                    // safe by itself; a checked count also fences what follows
	countRequired                 // safe only when the count is checked
)

// unfencedOK says why a writing statement is safe without a fence: its
// rule, and what it needs of its rows-affected count. rule is "" when no
// rule applies.
func (b *builder) unfencedOK(st *sqlscan.Statement, text sqlText, args []ssa.Value, argsKnown bool, call ssa.CallInstruction) (rule string, count countUse) {
	if writesInWith(st) {
		return "", countIgnored
	}
	switch {
	case st.Conflict == "DO NOTHING" || st.Conflict == "IGNORE" || st.Conflict == "NOT EXISTS":
		return "insert-if-absent", countIgnored
	case len(st.Versions) > 0 && b.versionHeld(st.Versions, text, args, argsKnown, call):
		return "optimistic concurrency", countRequired
	case st.Transition != nil && transitionFences(st.Transition, text, args, argsKnown),
		len(st.Pins) > 0 && pinnedToState(st.Pins, text, args, argsKnown):
		return "state transition", countGates
	case st.Expiry && agesAreTimes(st.AgeParams, text, args, argsKnown):
		return "delete by age", countIgnored
	case len(st.Sets) > 0 && tombstone(st.Sets, st.Where, text, args, argsKnown):
		return "a tombstone", countIgnored
	case st.Derived:
		return "derived from other rows", countIgnored
	case st.Reset:
		return "a reset of counters", countIgnored
	case serverSchema(st.Table):
		return "server configuration", countIgnored
	case st.Conflict == "DO UPDATE" && st.Converges && b.constantDefinition(st, text, args, argsKnown, call):
		return "definition upsert", countIgnored
	}
	return "", countIgnored
}

// transitionFences reports whether a state transition is a compare-and-set
// on the row's state (see the rules above).
func transitionFences(tr *sqlscan.Transition, text sqlText, args []ssa.Value, argsKnown bool) bool {
	if !tr.Keyed && !(tr.Aged && agesAreTimes(tr.AgeParams, text, args, argsKnown)) {
		return false // every row in the state: rows that entered it after the holder looked too
	}
	if tr.Alone {
		return true
	}
	to, ok := operandConst(tr.To, text, args, argsKnown)
	if !ok {
		return false
	}
	for _, f := range tr.From {
		from, ok := operandConst(f, text, args, argsKnown)
		switch {
		case ok && from == to:
			return false // the other columns land on rows already moved
		case !ok && !tr.Stamps:
			return false // a state the holder read may be the one set
		}
	}
	return true
}

// pinnedToState reports whether a DELETE's pins hold one column to
// constant string states that end a row's life (terminalState) and another
// to values the holder binds that are not constants (its key: the rows it
// saw). A row in such a state is one every holder deletes and none
// changes, so a stale holder's delete is the next holder's; a row pinned
// to a live state ('ACTIVE') or a category (kind = 'x') is deleted on the
// holder's own, possibly stale, judgement.
func pinnedToState(pins []sqlscan.Pin, text sqlText, args []ssa.Value, argsKnown bool) bool {
	state, key := false, false
	for _, p := range pins {
		switch {
		case !slices.ContainsFunc(p.Values, func(o sqlscan.Operand) bool { return !terminalConst(o, text, args, argsKnown) }),
			terminalFlag(p, text, args, argsKnown):
			state = true
		case !slices.ContainsFunc(p.Values, func(o sqlscan.Operand) bool { return !boundVariable(o, text, args, argsKnown) }):
			key = true
		}
	}
	return state && key
}

// tombstone reports whether an UPDATE only marks deleted (terminalFlag)
// the rows its conditions pin by a key, its other conditions holding
// columns to constants.
func tombstone(sets, where []sqlscan.Pin, text sqlText, args []ssa.Value, argsKnown bool) bool {
	for _, p := range sets {
		if !terminalFlag(p, text, args, argsKnown) {
			return false
		}
	}
	keyed := false
	for _, p := range where {
		for _, o := range p.Values {
			switch {
			case boundVariable(o, text, args, argsKnown):
				keyed = true
			case !isConstOperand(o, text, args, argsKnown):
				return false
			}
		}
	}
	return keyed
}

// terminalFlag reports whether p holds a soft-delete flag (is_deleted,
// deleted) to true only. Other flags are left out: archived is undone
// by an unarchive, and a stale holder's done = true can cover the retry
// the next holder started; a purge or removal flag is often set on rows
// the next holder added since.
func terminalFlag(p sqlscan.Pin, text sqlText, args []ssa.Value, argsKnown bool) bool {
	if !hasWordPrefix(p.Column, "delet", "isdelet") {
		return false
	}
	return !slices.ContainsFunc(p.Values, func(o sqlscan.Operand) bool {
		v, ok := operandConst(o, text, args, argsKnown)
		return !ok || v != "true" && v != "1"
	})
}

// isConstOperand reports whether an operand is a literal or a placeholder
// bound to a Go constant.
func isConstOperand(op sqlscan.Operand, text sqlText, args []ssa.Value, argsKnown bool) bool {
	_, ok := operandConst(op, text, args, argsKnown)
	return ok
}

// terminalConst reports whether an operand is a string constant naming a
// state that ends a row's life.
func terminalConst(op sqlscan.Operand, text sqlText, args []ssa.Value, argsKnown bool) bool {
	if !stringConst(op, text, args, argsKnown) {
		return false
	}
	s, ok := operandConst(op, text, args, argsKnown)
	return ok && terminalState(s)
}

// terminalState reports whether a state's name says the row is done with:
// marked for deletion, expired, cancelled, finished.
func terminalState(s string) bool {
	s = strings.ToLower(s)
	for _, stem := range [...]string{"delet", "remov", "purg", "expir", "cancel", "abort", "terminat", "finish", "complet", "done", "succe", "fail", "dead", "archiv", "obsolet", "tombston", "revok", "closed"} {
		if strings.Contains(s, stem) {
			return true
		}
	}
	return false
}

// boundVariable reports whether an operand is a placeholder bound to a Go
// value that is not a constant.
func boundVariable(op sqlscan.Operand, text sqlText, args []ssa.Value, argsKnown bool) bool {
	if op.Param.IsZero() {
		return false
	}
	v := boundValue(op.Param, text, args, argsKnown)
	return v != nil && !isConst(v)
}

// stringConst reports whether an operand is a string constant: a SQL
// string literal, or a Go string constant bound to a placeholder.
func stringConst(op sqlscan.Operand, text sqlText, args []ssa.Value, argsKnown bool) bool {
	if op.Literal != "" {
		return strings.HasPrefix(op.Literal, "'")
	}
	v := boundValue(op.Param, text, args, argsKnown)
	if v == nil {
		return false
	}
	_, ok := constString(v)
	return ok
}

// operandConst returns the constant an operand of a statement stands for,
// a SQL literal or a Go constant bound to a placeholder, as text: a
// string's contents, a number's digits.
func operandConst(op sqlscan.Operand, text sqlText, args []ssa.Value, argsKnown bool) (string, bool) {
	if op.Literal != "" {
		if strings.HasPrefix(op.Literal, "'") {
			return strings.ReplaceAll(strings.Trim(op.Literal, "'"), "''", "'"), true
		}
		if op.Literal == "TRUE" || op.Literal == "FALSE" {
			return strings.ToLower(op.Literal), true // as a Go constant bool reads
		}
		return op.Literal, true
	}
	v := boundValue(op.Param, text, args, argsKnown)
	if v == nil {
		return "", false
	}
	if s, ok := constString(v); ok {
		return s, true
	}
	if b, ok := constBool(v); ok {
		return strconv.FormatBool(b), true
	}
	if n, ok := constInt(v); ok {
		return strconv.FormatInt(n, 10), true
	}
	return "", false
}

// serverSchema reports whether table, schema-qualified as written, lives
// in a schema the database server keeps for itself.
func serverSchema(table string) bool {
	schema, _, ok := strings.Cut(strings.ToLower(table), ".")
	if !ok {
		return false
	}
	switch schema {
	case "performance_schema", "mysql", "sys", "pg_catalog":
		return true
	}
	return false
}

// writesInWith reports a data-modifying WITH clause, which the rules do
// not cover.
func writesInWith(st *sqlscan.Statement) bool {
	for i := range st.With {
		if st.With[i].Writes {
			return true
		}
	}
	return false
}

// boundValue returns the Go value bound to placeholder p, or nil.
func boundValue(p sqlscan.Param, text sqlText, args []ssa.Value, argsKnown bool) ssa.Value {
	if p.Style == sqlscan.Hole {
		return text.holeValue(p)
	}
	if !argsKnown {
		return nil
	}
	i, name := sqlscan.ArgIndex(p)
	if name != "" {
		return namedArg(args, name)
	}
	if i >= 0 && i < len(args) {
		return args[i]
	}
	return nil
}

// versionHeld reports whether a version compared by the statement is one
// the writer holds from a read of the row: read from the store in the
// function that writes, while the same leases were held, or passed in by
// its caller (the caller read it: a version nobody read matches no row).
// A version bound by name from a struct (sqlx's BindNamed, NamedExec) is
// judged by where the struct comes from.
func (b *builder) versionHeld(versions []sqlscan.Fence, text sqlText, args []ssa.Value, argsKnown bool, call ssa.CallInstruction) bool {
	fn := call.Parent()
	for _, v := range versions {
		val := boundValue(v.Token, text, args, argsKnown)
		if val == nil && v.Token.Name != "" {
			val = namedStruct(call)
		}
		if val == nil {
			continue
		}
		if passedIn(val, fn) {
			return true
		}
		read := readBy(val, fn)
		if read != nil && (b.regions == nil || len(b.heldBefore(read)) > 0 || len(b.heldBefore(call)) == 0) {
			return true
		}
	}
	return false
}

// namedStruct returns the value whose fields a sqlx named query binds to
// its :name placeholders: the argument of the BindNamed or Named call
// whose bound arguments call sends, or the last argument of a NamedExec
// call itself.
func namedStruct(call ssa.CallInstruction) ssa.Value {
	c := call.Common()
	if len(c.Args) == 0 {
		return nil
	}
	if f := calleeFunc(c); f != nil && f.Pkg() != nil && normalizePath(f.Pkg().Path()) == pkgSqlx && strings.HasPrefix(f.Name(), "NamedExec") {
		return unwrap(c.Args[len(c.Args)-1])
	}
	for _, a := range c.Args {
		ex, ok := unwrap(a).(*ssa.Extract)
		if !ok || ex.Index != 1 {
			continue
		}
		bind, ok := ex.Tuple.(*ssa.Call)
		if !ok {
			continue
		}
		f := calleeFunc(bind.Common())
		if f == nil || sqlxQueryArg(f) < 0 || f.Name() != "BindNamed" && f.Name() != "Named" {
			continue
		}
		bound := bind.Common().Args
		return unwrap(bound[len(bound)-1])
	}
	return nil
}

// passedIn reports whether v comes from a parameter of fn, or of the
// function fn is a closure of (captured or passed): the caller's value, a
// field of it, a copy (dup := *e), a step from it (v + 1) or what a
// function of the package maps it to (dbRow := mapInternal(e)). A method's
// receiver does not count: it is the store, not a row.
func passedIn(v ssa.Value, fn *ssa.Function) bool {
	for depth := 0; v != nil && depth < 8; depth++ {
		switch x := unwrap(v).(type) {
		case *ssa.Parameter:
			owner := x.Parent()
			return outermost(owner) == outermost(fn) && !isReceiver(x)
		case *ssa.Field:
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.UnOp:
			v = x.X
		case *ssa.Convert, *ssa.BinOp:
			v = throughConstStep(x) // nil, refused, for a step between two variables
		case *ssa.Alloc:
			v = storedWhole(x)
		case *ssa.FreeVar: // captured by the closure that sends the query
			v = boundTo(x)
		case *ssa.Call:
			return slices.ContainsFunc(mappedArgs(x, fn), func(a ssa.Value) bool { return passedIn(a, fn) })
		default:
			return false
		}
	}
	return false
}

// isReceiver reports whether p is its method's receiver.
func isReceiver(p *ssa.Parameter) bool {
	fn := p.Parent()
	return fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0] == p
}

// storedWhole returns the one value stored into the whole of alloc (a
// local copy: dup := *e), or nil.
func storedWhole(alloc *ssa.Alloc) ssa.Value {
	var val ssa.Value
	for _, ref := range *alloc.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
			if val != nil {
				return nil
			}
			val = st.Val
		}
	}
	return val
}

// mappedArgs returns the struct arguments (receiver excluded) of a call of
// a function of fn's package: what it maps to another struct (a row type
// to its database form).
func mappedArgs(call *ssa.Call, fn *ssa.Function) []ssa.Value {
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Pkg == nil || fn.Pkg == nil || callee.Pkg != fn.Pkg {
		return nil
	}
	args := call.Call.Args
	if callee.Signature.Recv() != nil && len(args) > 0 {
		args = args[1:]
	}
	var out []ssa.Value
	for _, a := range args {
		t := a.Type()
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if _, ok := t.Underlying().(*types.Struct); ok {
			out = append(out, a)
		}
	}
	return out
}

// readBy returns the call in fn that produced v, a value read from a store:
// the result of a call (a sqlc Get, a row struct) or one of its fields, or
// a variable filled by Scan.
func readBy(v ssa.Value, fn *ssa.Function) ssa.Instruction {
	for depth := 0; v != nil && depth < 6; depth++ {
		switch x := unwrap(v).(type) {
		case *ssa.Call:
			return sameFunc(x, fn)
		case *ssa.Extract:
			if c, ok := x.Tuple.(*ssa.Call); ok {
				return sameFunc(c, fn)
			}
			return nil
		case *ssa.Field:
			v = x.X
		case *ssa.Convert:
			v = x.X
		case *ssa.UnOp:
			for _, c := range callsTaking(x.X) { // row.Scan(&version), rows.Scan(&d.Version)
				if f := calleeFunc(c.Common()); f != nil && strings.HasPrefix(f.Name(), "Scan") {
					return sameFunc(c, fn)
				}
			}
			if fa, ok := x.X.(*ssa.FieldAddr); ok {
				if _, isAlloc := fa.X.(*ssa.Alloc); isAlloc {
					v = fa.X // a struct whose address was scanned into or filled by a call
					for _, c := range callsTaking(fa.X) {
						if f := calleeFunc(c.Common()); f != nil && (strings.HasPrefix(f.Name(), "Scan") || strings.HasPrefix(f.Name(), "Get") || f.Name() == "Decode") {
							return sameFunc(c, fn)
						}
					}
					return nil
				}
				v = fa.X
				continue
			}
			v = x.X
		default:
			return nil
		}
	}
	return nil
}

// sameFunc returns call if it is in fn (or a closure of it).
func sameFunc(call *ssa.Call, fn *ssa.Function) ssa.Instruction {
	if call.Parent() != nil && outermost(call.Parent()) == outermost(fn) {
		return call
	}
	return nil
}

// agesAreTimes reports whether every placeholder a DELETE by age compares
// with is bound to a time (a time.Time, or a Unix time read from one) or
// to a transaction-ID watermark.
func agesAreTimes(params []sqlscan.Param, text sqlText, args []ssa.Value, argsKnown bool) bool {
	for _, p := range params {
		v := boundValue(p, text, args, argsKnown)
		if v == nil || !isTime(v) && !isTxWatermark(v) {
			return false
		}
	}
	return true
}

// isTime reports whether v is a time.Time (or of a type defined as one:
// go-openapi's strfmt.DateTime) or the Unix time of one.
func isTime(v ssa.Value) bool {
	v = unwrap(v)
	if isNamed(v.Type(), "time", "Time") || definedAsTime(v.Type()) {
		return true
	}
	if p := producer(v); p != nil {
		if f := calleeFunc(p.Common()); f != nil && strings.HasPrefix(f.Name(), "Unix") && recvType(f) != nil && isNamed(recvType(f), "time", "Time") {
			return true
		}
	}
	return false
}

// definedAsTime reports whether t is a type defined as time.Time (type
// DateTime time.Time): its underlying struct is time.Time's own.
func definedAsTime(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || st.NumFields() == 0 {
		return false
	}
	f := st.Field(0)
	return f.Pkg() != nil && f.Pkg().Path() == "time" && f.Name() == "wall"
}

// isTxWatermark reports whether v is a PostgreSQL snapshot's xmin, the
// oldest transaction still running: a bound that, like a time, never goes
// backwards, so a stale holder's older copy deletes a subset of what the
// next holder deletes (SpiceDB's garbage collection deletes rows with
// deleted_xid < NewXid8(revision.snapshot.xmin)). The field is taken as
// read, or through conversions and a one-argument constructor.
func isTxWatermark(v ssa.Value) bool {
	for depth := 0; v != nil && depth < 4; depth++ {
		switch x := unwrap(v).(type) {
		case *ssa.Field:
			return strings.EqualFold(fieldName(x.X.Type(), x.Field), "xmin")
		case *ssa.UnOp:
			fa, ok := x.X.(*ssa.FieldAddr)
			return ok && x.Op == token.MUL && strings.EqualFold(fieldName(fa.X.Type(), fa.Field), "xmin")
		case *ssa.Convert:
			v = x.X
		case *ssa.Call:
			if x.Call.StaticCallee() == nil || len(x.Call.Args) != 1 {
				return false
			}
			v = x.Call.Args[0]
		default:
			return false
		}
	}
	return false
}
