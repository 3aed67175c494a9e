package lease

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// Query builders are read by writing out, from the SSA of the builder
// chain, the SQL they would send, with a hole carrying each bound value:
//
//	sq.Update("runs").Set("state", "done").Where(sq.LtOrEq{"fence": tok}).RunWith(db).Exec()
//
// reads as "UPDATE runs SET state = <hole> WHERE fence <= <hole tok>", and
// from there is judged like any SQL text (fences, run-time WHERE clauses,
// the idempotence rules). A builder's API is data here, keyed by import
// path: which calls start a statement, name its table, set columns, add
// conditions and suffixes. Calls the grammar does not know (OrderBy,
// Limit, PlaceholderFormat, RunWith) add nothing.

// A builderGrammar describes one query builder library.
type builderGrammar struct {
	verbs   map[string]string // constructors (package funcs or methods) and the verb they start
	table   map[string]bool   // methods whose first argument names the table (Into, From)
	set     map[string]bool   // Set(column, value)
	where   map[string]bool   // Where(pred, args...)
	suffix  map[string]bool   // Suffix(sql, args...)
	columns map[string]bool   // Columns(cols...)
	column  map[string]bool   // Column(col, args...): a selected column or expression
	values  map[string]bool   // Values(vals...)
	// preds maps the builder's predicate map types to their operator
	// (sq.Eq{"id": id} is "id = <hole>"); conj the conjunction types.
	preds map[string]string
	conj  map[string]string
	expr  string // the function that wraps raw SQL with args (sq.Expr)

	// ORM-style query builders (bun) name the table by a model and write
	// assignments and conflict clauses as SQL with "?" args.
	model   map[string]bool // Model(&row): the table of the row's type
	tables  map[string]bool // Table(names...), the first one
	setExpr map[string]bool // Set("col = ?", args...)
	whereOr map[string]bool // WhereOr(cond, args...)
	wherePK map[string]bool // WherePK(): the model's primary key
	on      map[string]bool // On("CONFLICT (id) DO NOTHING", args...)
	ignore  map[string]bool // Ignore(): insert-if-absent
	unseen  map[string]bool // calls that may add conditions out of sight (Apply, WhereGroup)
	// A delete of a model whose struct marks a soft-delete column (the
	// soft_delete option of tag softTag) is an UPDATE stamping that column
	// on rows not stamped yet, unless forced.
	softTag string
	force   map[string]bool // ForceDelete(): a real DELETE
	anyRows map[string]bool // WhereDeleted, WhereAllWithDeleted: stamped rows too

	// Expression builders (goqu) take conditions as expression values.
	exprWhere map[string]bool // Where(exprs...), read by goquPred
	record    map[string]bool // Set(goqu.Record{...})
	rows      map[string]bool // Rows(rows...), Vals(vals...)
	conflict  map[string]bool // OnConflict(goqu.DoNothing())
	// A dataset's Update or Delete (goqu.From("jobs").Where(...).Update())
	// starts a statement that keeps the dataset's table and conditions:
	// dataset names its type, from the calls that start it.
	dataset string
	from    map[string]bool

	path string // the import path, major version removed
}

// pkgSquirrel is Masterminds/squirrel.
const pkgSquirrel = "github.com/Masterminds/squirrel"

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// builderGrammars returns the grammar of each query builder, by import path
// (major version removed).
func builderGrammars() map[string]*builderGrammar {
	return map[string]*builderGrammar{
		pkgSquirrel: {
			verbs:   map[string]string{"Update": "UPDATE", "Insert": "INSERT", "Replace": "REPLACE", "Delete": "DELETE", "Select": "SELECT"},
			table:   set("Into", "From", "Table"),
			column:  set("Column"),
			set:     set("Set"),
			where:   set("Where"),
			suffix:  set("Suffix"),
			columns: set("Columns"),
			values:  set("Values"),
			preds:   map[string]string{"Eq": "=", "NotEq": "<>", "Lt": "<", "LtOrEq": "<=", "Gt": ">", "GtOrEq": ">="},
			conj:    map[string]string{"And": " AND ", "Or": " OR "},
			expr:    "Expr",
		},
		pkgBun: {
			verbs:   map[string]string{"NewUpdate": "UPDATE", "NewInsert": "INSERT", "NewDelete": "DELETE"},
			table:   set("TableExpr", "ModelTableExpr"),
			tables:  set("Table"),
			model:   set("Model"),
			setExpr: set("Set"),
			where:   set("Where"),
			whereOr: set("WhereOr"),
			wherePK: set("WherePK"),
			on:      set("On"),
			ignore:  set("Ignore"),
			unseen:  set("Apply", "WhereGroup"),
			softTag: "bun",
			force:   set("ForceDelete"),
			anyRows: set("WhereDeleted", "WhereAllWithDeleted"),
		},
		pkgGoqu: {
			verbs:     map[string]string{"Update": "UPDATE", "Insert": "INSERT", "Delete": "DELETE"},
			exprWhere: set("Where"),
			record:    set("Set"),
			rows:      set("Rows", "Vals"),
			conflict:  set("OnConflict"),
			dataset:   "SelectDataset",
			from:      set("From"),
		},
	}
}

// pkgBun is uptrace/bun.
const pkgBun = "github.com/uptrace/bun"

// grammarOf returns the grammar of the builder library fn belongs to.
func (b *builder) grammarOf(fnPkg string) *builderGrammar {
	if b.grammars == nil {
		b.grammars = builderGrammars()
		for path, g := range b.grammars {
			g.path = path
		}
	}
	return b.grammars[normalizePath(fnPkg)]
}

// A builtStatement collects the parts of a statement along a builder chain.
type builtStatement struct {
	verb, table string
	sets, conds []string
	ors         []string
	cols, vals  []string
	suffix      string
	softCol     string // the model's soft-delete column
	force       bool   // a real DELETE even so
	anyRows     bool   // not only rows the soft delete has not stamped
}

// built writes out the SQL of the builder chain that produced v, or
// reports false when the chain does not start at a known constructor.
func (f *folder) built(v ssa.Value, depth int) (string, bool) {
	var chain []*ssa.Call
	var g *builderGrammar
	f.inChain++
	defer func() { f.inChain-- }()
	for p := producer(f.through(v)); p != nil; p = producer(f.through(callRecv(p.Common()))) {
		fn := calleeFunc(p.Common())
		if fn == nil || fn.Pkg() == nil {
			return "", false
		}
		if g == nil {
			g = f.b.grammarOf(fn.Pkg().Path())
		}
		if g == nil || f.b.grammarOf(fn.Pkg().Path()) != g {
			return "", false
		}
		chain = append(chain, p)
		if len(chain) > 64 {
			return "", false
		}
		_, isVerb := g.verbs[fn.Name()]
		switch {
		case g.dataset != "" && receiverName(fn) == g.dataset:
			continue // ds.Update(), ds.Where(...): back to what made the dataset
		case isVerb && typeName(p.Type()) != "StatementBuilderType":
		case g.from[fn.Name()]: // goqu.From(t), db.From(t): the dataset starts here
		default:
			continue
		}
		break
	}
	if len(chain) == 0 {
		return "", false
	}
	if st, ok := f.fromDataset(g, chain, depth); ok {
		return st.text(), true
	}
	start := calleeFunc(chain[len(chain)-1].Common())
	verb, ok := g.verbs[start.Name()]
	if !ok {
		return "", false // built out of sight (a phi, a parameter)
	}
	st := &builtStatement{verb: verb}
	switch t := arg(chain[len(chain)-1].Common(), 0); {
	case verb == "SELECT": // sq.Select(columns...)
		cols, _ := variadic(t)
		for _, col := range cols {
			st.cols = append(st.cols, f.fold(col, depth+1))
		}
	case t != nil: // sq.Update("runs"); bun's NewUpdate() names none
		st.table = f.fold(t, depth+1)
	}
	f.seen = true
	for i := len(chain) - 2; i >= 0; i-- {
		f.clause(g, st, chain[i].Common(), depth)
	}
	return st.text(), true
}

// fromDataset writes out a chain that starts at a dataset (goqu.From(t)
// ... .Where(...).Update().Set(...)): the dataset's table and conditions
// carry over into the statement its Update or Delete starts. ok is false
// for any other chain.
func (f *folder) fromDataset(g *builderGrammar, chain []*ssa.Call, depth int) (*builtStatement, bool) {
	if g.dataset == "" {
		return nil, false
	}
	start := calleeFunc(chain[len(chain)-1].Common())
	if !g.from[start.Name()] || receiverName(start) == g.dataset {
		return nil, false
	}
	verbAt := -1
	for i := len(chain) - 2; i >= 0; i-- {
		fn := calleeFunc(chain[i].Common())
		if _, ok := g.verbs[fn.Name()]; ok && receiverName(fn) == g.dataset {
			verbAt = i
			break
		}
	}
	if verbAt < 0 {
		return nil, false // a SELECT
	}
	st := &builtStatement{verb: g.verbs[calleeFunc(chain[verbAt].Common()).Name()]}
	if tables, _ := variadic(arg(chain[len(chain)-1].Common(), 0)); len(tables) > 0 {
		st.table = f.fold(tables[0], depth+1)
	}
	f.seen = true
	for i := len(chain) - 2; i >= 0; i-- {
		c := chain[i].Common()
		if i > verbAt && g.from[calleeFunc(c).Name()] {
			if tables, _ := variadic(arg(c, 0)); len(tables) > 0 {
				st.table = f.fold(tables[0], depth+1)
			}
			continue
		}
		if i != verbAt {
			f.clause(g, st, c, depth)
		}
	}
	return st, true
}

// clause adds one call of a builder chain to st.
func (f *folder) clause(g *builderGrammar, st *builtStatement, c *ssa.CallCommon, depth int) {
	name := calleeFunc(c).Name()
	switch {
	case g.table[name]:
		st.table = f.fold(arg(c, 0), depth+1)
	case g.set[name]:
		st.sets = append(st.sets, f.fold(arg(c, 0), depth+1)+" = "+f.value(g, arg(c, 1), depth))
	case g.where[name]:
		st.conds = append(st.conds, f.pred(g, arg(c, 0), arg(c, 1), depth))
	case g.suffix[name]:
		st.suffix += " " + f.bind(arg(c, 0), arg(c, 1), depth)
	case g.column[name]:
		if col := unwrap(arg(c, 0)); isString(col.Type()) {
			st.cols = append(st.cols, f.bind(col, arg(c, 1), depth))
		} else {
			st.cols = append(st.cols, f.value(g, col, depth))
		}
	case g.columns[name]:
		cols, _ := variadic(arg(c, 0))
		for _, col := range cols {
			st.cols = append(st.cols, f.fold(col, depth+1))
		}
	case g.values[name]:
		vals, _ := variadic(arg(c, 0))
		for _, v := range vals {
			st.vals = append(st.vals, f.value(g, v, depth))
		}
	case name == "SetMap":
		st.sets = append(st.sets, "x = "+f.hole(arg(c, 0)))
	case g.model[name]:
		if st.table == "" {
			st.table = f.b.modelTable(arg(c, 0))
		}
		st.vals = append(st.vals, f.hole(unwrap(arg(c, 0))))
		if g.softTag != "" {
			st.softCol = softDeleteColumn(modelType(arg(c, 0)), g.softTag)
		}
	case g.force[name]:
		st.force = true
	case g.anyRows[name]:
		st.anyRows = true
	case g.tables[name]:
		if names, ok := variadic(arg(c, 0)); ok && len(names) > 0 {
			st.table = f.fold(names[0], depth+1)
		}
	case g.setExpr[name]:
		st.sets = append(st.sets, f.bind(arg(c, 0), arg(c, 1), depth))
	case g.whereOr[name]:
		st.ors = append(st.ors, "("+f.bind(arg(c, 0), arg(c, 1), depth)+")")
	case g.wherePK[name]:
		st.conds = append(st.conds, "id = "+f.hole(constant0()))
	case g.on[name]:
		st.suffix += " ON " + f.bind(arg(c, 0), arg(c, 1), depth)
	case g.ignore[name]:
		st.suffix += " ON CONFLICT DO NOTHING"
	case g.unseen[name]:
		st.conds = append(st.conds, f.hole(nil))
	case g.exprWhere[name]:
		exprs, known := f.exprList(arg(c, 0), depth)
		if !known {
			st.conds = append(st.conds, f.hole(nil))
		}
		for _, e := range exprs {
			st.conds = append(st.conds, f.goquPred(e, depth))
		}
	case g.record[name]:
		st.sets = append(st.sets, f.recordSets(arg(c, 0)))
	case g.rows[name]:
		st.vals = append(st.vals, f.hole(unwrap(arg(c, 0))))
	case g.conflict[name]:
		st.suffix += f.goquConflict(arg(c, 0), depth)
	}
}

// constant0 is a number: a hole for a value that is not text (a primary
// key), which stands for no condition of its own.
func constant0() ssa.Value { return ssa.NewConst(constant.MakeInt64(0), types.Typ[types.Int64]) }

// text renders the statement.
func (st *builtStatement) text() string {
	if st.verb == "SELECT" {
		text := "SELECT " + strings.Join(st.cols, ", ")
		if st.table != "" {
			text += " FROM " + st.table
		}
		return text + st.where() + st.suffix
	}
	if st.table == "" {
		st.table = "x" // named out of sight
	}
	var sb strings.Builder
	switch st.verb {
	case "UPDATE":
		sets := st.sets
		if len(sets) == 0 { // a model's columns
			sets = []string{"x = " + strings.Join(st.vals, ", ")}
		}
		sb.WriteString("UPDATE " + st.table + " SET " + strings.Join(sets, ", "))
	case "DELETE":
		if st.softCol != "" && !st.force {
			sb.WriteString("UPDATE " + st.table + " SET " + st.softCol + " = now()")
			if !st.anyRows {
				st.conds = append(st.conds[:len(st.conds):len(st.conds)], st.softCol+" IS NULL")
			}
			break
		}
		sb.WriteString("DELETE FROM " + st.table)
	case "INSERT", "REPLACE":
		sb.WriteString(st.verb + " INTO " + st.table)
		if len(st.cols) > 0 {
			sb.WriteString(" (" + strings.Join(st.cols, ", ") + ")")
		}
		sb.WriteString(" VALUES (" + strings.Join(st.vals, ", ") + ")")
		// An insert's Set and Where belong to its ON CONFLICT DO UPDATE (bun).
		sb.WriteString(st.suffix)
		if len(st.sets) > 0 {
			sb.WriteString(" SET " + strings.Join(st.sets, ", "))
		}
		sb.WriteString(st.where())
		return sb.String()
	}
	sb.WriteString(st.where())
	sb.WriteString(st.suffix)
	return sb.String()
}

// where renders the WHERE clause: the ANDed conditions, ORed with the others.
func (st *builtStatement) where() string {
	if len(st.conds) == 0 && len(st.ors) == 0 {
		return ""
	}
	where := strings.Join(st.conds, " AND ")
	if len(st.ors) > 0 {
		if where == "" {
			where = "TRUE"
		}
		where = "(" + where + ") OR " + strings.Join(st.ors, " OR ")
	}
	return " WHERE " + where
}

// value renders a bound value: sq.Expr("version + 1") as its SQL, anything
// else as a hole carrying it.
func (f *folder) value(g *builderGrammar, v ssa.Value, depth int) string {
	if p := producer(v); p != nil {
		if fn := calleeFunc(p.Common()); fn != nil && fn.Pkg() != nil && fn.Name() == g.expr && f.b.grammarOf(fn.Pkg().Path()) == g {
			return f.bind(arg(p.Common(), 0), arg(p.Common(), 1), depth)
		}
	}
	return f.hole(unwrap(v))
}

// bind folds SQL text whose "?" placeholders take args, one hole each.
func (f *folder) bind(sqlText, args ssa.Value, depth int) string {
	vals, known := variadic(args)
	return f.bindValues(f.fold(sqlText, depth+1), vals, known)
}

// bindValues binds vals to the "?" placeholders of text, one hole each.
func (f *folder) bindValues(text string, vals []ssa.Value, known bool) string {
	var sb strings.Builder
	n := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '?' {
			sb.WriteByte(text[i])
			continue
		}
		var v ssa.Value
		if known && n < len(vals) {
			v = vals[n]
		}
		n++
		if v == nil {
			sb.WriteString(f.hole(nil))
			continue
		}
		sb.WriteString(f.hole(v))
	}
	return sb.String()
}

// pred renders a Where predicate: SQL text with args, a predicate map
// (sq.Eq, sq.LtOrEq, ...), a conjunction (sq.And, sq.Or), or a hole that
// may hold any condition.
func (f *folder) pred(g *builderGrammar, p, args ssa.Value, depth int) string {
	if depth > maxFoldDepth {
		return f.hole(nil)
	}
	inner := unwrap(p)
	if isString(inner.Type()) {
		return f.bind(inner, args, depth)
	}
	name := typeName(inner.Type())
	if op, ok := g.preds[name]; ok {
		if mm := makeMapOf(inner); mm != nil {
			var parts []string
			for _, u := range mapUpdates(mm) {
				col, ok := constString(u.Key)
				if !ok {
					return f.hole(nil)
				}
				parts = append(parts, col+" "+op+" "+f.hole(unwrap(u.Value)))
			}
			if len(parts) > 0 {
				return "(" + strings.Join(parts, " AND ") + ")"
			}
		}
	}
	if sep, ok := g.conj[name]; ok {
		if elems := sliceElems(inner); elems != nil {
			var parts []string
			for _, e := range elems {
				parts = append(parts, f.pred(g, e, nil, depth+1))
			}
			return "(" + strings.Join(parts, sep) + ")"
		}
	}
	if pr := producer(inner); pr != nil {
		if fn := calleeFunc(pr.Common()); fn != nil && fn.Pkg() != nil && fn.Name() == g.expr && f.b.grammarOf(fn.Pkg().Path()) == g {
			return "(" + f.bind(arg(pr.Common(), 0), arg(pr.Common(), 1), depth) + ")"
		}
	}
	// Out of sight here; a caller may pass it (sqlconds.go).
	f.holes = append(f.holes, hole{value: inner, text: true, builder: g.path})
	return sqlscan.HoleMarker(len(f.holes))
}

// isString reports whether t is a string type.
func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// makeMapOf returns the map literal v is (sq.Eq{...} converted to its type).
func makeMapOf(v ssa.Value) *ssa.MakeMap {
	for {
		switch x := v.(type) {
		case *ssa.MakeMap:
			return x
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		default:
			return nil
		}
	}
}

// mapUpdates returns the entries put into a map literal, in source order.
func mapUpdates(mm *ssa.MakeMap) []*ssa.MapUpdate {
	var us []*ssa.MapUpdate
	for _, ref := range *mm.Referrers() {
		if u, ok := ref.(*ssa.MapUpdate); ok && u.Map == mm {
			us = append(us, u)
		}
	}
	return us
}

// sliceElems returns the elements of a slice literal (sq.And{a, b}).
func sliceElems(v ssa.Value) []ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.Slice:
			if alloc, ok := x.X.(*ssa.Alloc); ok {
				return arrayElems(alloc)
			}
			return nil
		case *ssa.ChangeType:
			v = x.X
		default:
			return nil
		}
	}
}

// sqlQueryValue returns the value that carries the SQL a call sends: its
// query argument, or for a builder the chain it runs.
func sqlQueryValue(c *ssa.CallCommon, api *API) ssa.Value {
	if api.Fence == SQLBuilder {
		return callRecv(c)
	}
	return arg(c, api.Arg)
}

// sqlSession returns the database handle a call sends its SQL on: its
// receiver, or for a builder what the chain was RunWith.
func sqlSession(c *ssa.CallCommon, api *API) ssa.Value {
	if api == nil || api.Fence != SQLBuilder {
		return callRecv(c)
	}
	for p := producer(callRecv(c)); p != nil; p = producer(callRecv(p.Common())) {
		if fn := calleeFunc(p.Common()); fn != nil && fn.Name() == "RunWith" {
			return unwrap(arg(p.Common(), 0))
		}
	}
	return callRecv(c)
}

// builderCatalog returns the catalog rows of the query builders and of
// sqlx: the calls that send a statement.
func builderCatalog() []API {
	var c []API
	// An INSERT, UPDATE or DELETE with a RETURNING suffix is sent by Query
	// or QueryRow (psql.Insert(...).Suffix("RETURNING id").QueryRow()).
	for _, recv := range []string{"UpdateBuilder", "InsertBuilder", "DeleteBuilder"} {
		for _, name := range []string{"Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext"} {
			if recv == "DeleteBuilder" && name == "QueryRow" {
				continue // squirrel has only DeleteBuilder.QueryRowContext
			}
			c = append(c, API{Pkg: pkgSquirrel, Recv: recv, Name: name, Role: RoleWrite, System: SQL, Fence: SQLBuilder})
		}
	}
	// A Select sends SQL too: an advisory lock
	// (sq.Select().Column("pg_try_advisory_xact_lock(?)", key)), or a
	// write in a function it calls.
	for _, name := range []string{"Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext"} {
		c = append(c, API{Pkg: pkgSquirrel, Recv: "SelectBuilder", Name: name, Role: RoleWrite, System: SQL, Fence: SQLBuilder})
	}
	for _, name := range []string{"Exec", "ExecContext"} {
		c = append(c, API{Pkg: pkgGoquExec, Recv: "QueryExecutor", Name: name, Role: RoleWrite, System: SQL, Fence: SQLBuilder})
	}
	for _, recv := range []string{"UpdateQuery", "InsertQuery", "DeleteQuery"} {
		c = append(c, API{Pkg: pkgBun, Recv: recv, Name: "Exec", Role: RoleWrite, System: SQL, Fence: SQLBuilder})
	}
	// bun's DB, Tx and Conn send SQL text like database/sql's.
	for _, recv := range []string{"DB", "Tx", "Conn"} {
		c = append(c,
			API{Pkg: pkgBun, Recv: recv, Name: "ExecContext", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 1},
			API{Pkg: pkgBun, Recv: recv, Name: "QueryContext", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 1},
			API{Pkg: pkgBun, Recv: recv, Name: "QueryRowContext", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 1},
		)
	}
	for _, recv := range []string{"DB", "Tx"} {
		c = append(c,
			API{Pkg: pkgSqlx, Recv: recv, Name: "NamedExec", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 0},
			API{Pkg: pkgSqlx, Recv: recv, Name: "NamedExecContext", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 1},
			API{Pkg: pkgSqlx, Recv: recv, Name: "MustExec", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 0},
			API{Pkg: pkgSqlx, Recv: recv, Name: "MustExecContext", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 1},
		)
	}
	// Get and QueryRowx send SQL too: a lock taken with
	// GetContext(ctx, &ok, "SELECT pg_try_advisory_lock($1)", key), an
	// UPDATE ... RETURNING read into a struct.
	for _, recv := range []string{"DB", "Tx", "Conn"} {
		c = append(c,
			API{Pkg: pkgSqlx, Recv: recv, Name: "GetContext", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 2},
			API{Pkg: pkgSqlx, Recv: recv, Name: "QueryRowxContext", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 1},
		)
		if recv != "Conn" {
			c = append(c,
				API{Pkg: pkgSqlx, Recv: recv, Name: "Get", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 1},
				API{Pkg: pkgSqlx, Recv: recv, Name: "QueryRowx", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 0},
			)
		}
	}
	// The package-level forms take the database as an argument.
	c = append(c,
		API{Pkg: pkgSqlx, Name: "NamedExec", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 1},
		API{Pkg: pkgSqlx, Name: "NamedExecContext", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 2},
		API{Pkg: pkgSqlx, Name: "MustExec", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 1},
		API{Pkg: pkgSqlx, Name: "MustExecContext", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 2},
		API{Pkg: pkgSqlx, Name: "Get", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 2},
		API{Pkg: pkgSqlx, Name: "GetContext", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 3},
	)
	c = append(c, dotsqlCatalog()...)
	c = append(c, goZeroCatalog()...)
	c = append(c, entCatalog()...)
	c = append(c, boilerCatalog()...)
	return append(c, ormCatalog()...)
}

// pkgSqlx is jmoiron/sqlx.
const pkgSqlx = "github.com/jmoiron/sqlx"

// sqlxQueryArg returns which argument of a sqlx function that rewrites a
// query (BindNamed, Named, Rebind, In) holds the query, or -1.
func sqlxQueryArg(fn *types.Func) int {
	if fn.Pkg() == nil || normalizePath(fn.Pkg().Path()) != pkgSqlx {
		return -1
	}
	method := receiverName(fn) != ""
	switch fn.Name() {
	case "BindNamed", "Rebind":
		if method {
			return 0
		}
		return 1
	case "Named", "In":
		return 0
	}
	return -1
}
