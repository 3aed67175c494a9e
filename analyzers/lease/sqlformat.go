package lease

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Applications format SQL with printf-like functions of their own or of a
// library, such as TiDB's sqlescape (%n an identifier, %? a value), often
// in another package than the query:
//
//	stmt := sqlescape.MustEscapeSQL("SELECT GET_LOCK(%?, %?)", name, timeout)
//
//	func Exec(ctx context.Context, db *sql.DB, stmt string, args ...any) error {
//		stmt, err := sqlescape.EscapeSQL(stmt, args...)
//		...
//		_, err = db.ExecContext(ctx, stmt)
//	}
//
// A function that returns the text of its format parameter with each
// %-verb replaced by one of its variadic arguments gets a FormatFact, and a
// call to it folds as fmt.Sprintf does (sqltext.go): the format's text,
// each verb its argument's constant text or a hole. A helper that sends
// such a formatter's result as SQL gets a SQLParamFact with Format set, and
// a call to it is read as its query formatted with its arguments.
//
// A function is taken for a formatter only when its shape and body say so:
// its last parameter is ...any, it returns a string or []byte, and either
// (1) it scans its format parameter for '%' and appends slices of it to the
// buffer it returns (the loop every printf-like formatter runs), or (2)
// every text it returns (but an empty one on an error path) is what
// fmt.Sprintf or another formatter returns for its own format and
// arguments.

// FormatFact: the function returns, as its first result, the text of
// parameter Format with each %-verb replaced by the next value of its
// variadic parameter Args (parameters counted without the receiver).
type FormatFact struct {
	Format int
	Args   int
}

func (*FormatFact) AFact() {}
func (f *FormatFact) String() string {
	return fmt.Sprintf("printf-like formatter of param %d with param %d", f.Format, f.Args)
}

// deriveFormatters records a FormatFact for each formatter of the package,
// wrappers of wrappers included. Its facts are local (setLocal) and leave
// with the package's other facts.
func (b *builder) deriveFormatters() {
	for range len(b.funcs) + 1 {
		changed := false
		for _, fn := range b.funcs {
			obj := declaredFunc(fn)
			if obj == nil {
				continue
			}
			var have FormatFact
			if b.ownFact(obj, &have) {
				continue
			}
			if f, ok := b.formatterOf(fn); ok {
				b.setLocal(obj, &f)
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}

// exportFormatters exports the formatters of a package that is otherwise
// irrelevant (relevant): a formatter alone does not make its importers
// relevant, since a package that sends SQL imports a database package.
func (b *builder) exportFormatters() {
	if !hasFormatterShape(b.pass.TypesInfo) {
		return
	}
	b.funcs = buildSSA(b.pass, b.cfgs)
	b.deriveFormatters()
	for fn, facts := range b.local {
		for _, f := range facts {
			if ff, ok := f.(*FormatFact); ok {
				b.pass.ExportObjectFact(fn, ff)
			}
		}
	}
}

// hasFormatterShape reports whether the package declares a function shaped
// like a formatter, before SSA is built for it.
func hasFormatterShape(info *types.Info) bool {
	for _, obj := range info.Defs {
		if fn, ok := obj.(*types.Func); ok {
			if _, _, ok := formatShape(fn.Type().(*types.Signature)); ok {
				return true
			}
		}
	}
	return false
}

// formatShape returns the format and args parameters of a function shaped
// like a formatter: a string parameter, then ...any last, and a string or
// []byte first result.
func formatShape(sig *types.Signature) (format, args int, ok bool) {
	params := sig.Params()
	n := params.Len()
	if !sig.Variadic() || n < 2 || sig.Results().Len() == 0 || !isText(sig.Results().At(0).Type()) {
		return 0, 0, false
	}
	elems, isSlice := params.At(n - 1).Type().(*types.Slice)
	if !isSlice {
		return 0, 0, false
	}
	if iface, isIface := elems.Elem().Underlying().(*types.Interface); !isIface || iface.NumMethods() != 0 {
		return 0, 0, false
	}
	if b, isBasic := params.At(n - 2).Type().Underlying().(*types.Basic); !isBasic || b.Info()&types.IsString == 0 {
		return 0, 0, false
	}
	return n - 2, n - 1, true
}

// isText reports whether t is a string or a []byte.
func isText(t types.Type) bool {
	_, isIface := t.Underlying().(*types.Interface)
	return !isIface && isStringish(t)
}

// formatterOf returns the FormatFact fn deserves.
func (b *builder) formatterOf(fn *ssa.Function) (FormatFact, bool) {
	format, args, ok := formatShape(fn.Signature)
	if !ok {
		return FormatFact{}, false
	}
	skip := 0
	if fn.Signature.Recv() != nil {
		skip = 1
	}
	if len(fn.Params) != skip+args+1 {
		return FormatFact{}, false
	}
	f := FormatFact{Format: format, Args: args}
	fp, ap := fn.Params[skip+format], fn.Params[skip+args]
	if b.wrapsFormatter(fn, fp, ap) || scansFormat(fn, fp) {
		return f, true
	}
	return FormatFact{}, false
}

// wrapsFormatter reports whether every text fn returns, but an empty one,
// is a formatter's result for format and args, and one is.
func (b *builder) wrapsFormatter(fn *ssa.Function, format, args *ssa.Parameter) bool {
	wraps := false
	for _, v := range returnedFirst(fn) {
		if isEmptyText(v) {
			continue
		}
		call := producingCall(v)
		if call == nil {
			return false
		}
		ff, ok := b.formatterFact(call.Common())
		if !ok || unwrap(arg(call.Common(), ff.Format)) != format || unwrap(arg(call.Common(), ff.Args)) != args {
			return false
		}
		wraps = true
	}
	return wraps
}

// formatterFact returns how a call formats its text: fmt.Sprintf, or a
// function with a FormatFact.
func (b *builder) formatterFact(c *ssa.CallCommon) (FormatFact, bool) {
	fn := calleeFunc(c)
	if fn == nil || fn.Pkg() == nil {
		return FormatFact{}, false
	}
	if fn.Pkg().Path() == "fmt" && fn.Name() == "Sprintf" {
		return FormatFact{Format: 0, Args: 1}, true
	}
	var f FormatFact
	if c.IsInvoke() || !b.ownFact(fn, &f) {
		return FormatFact{}, false
	}
	return f, true
}

// scansFormat reports whether fn looks for '%' in its text and appends
// slices of format to the buffer it returns.
func scansFormat(fn *ssa.Function, format *ssa.Parameter) bool {
	if !comparesPercent(fn) {
		return false
	}
	seen := make(map[ssa.Value]bool)
	var copies func(v ssa.Value) bool
	copies = func(v ssa.Value) bool {
		v = unwrap(v)
		if v == nil || seen[v] {
			return false
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Phi:
			for _, e := range x.Edges {
				if copies(e) {
					return true
				}
			}
		case *ssa.Convert:
			return copies(x.X)
		case *ssa.Extract:
			if call, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 {
				return copies(call)
			}
		case *ssa.Call:
			args := x.Call.Args
			if len(args) == 0 || !types.Identical(args[0].Type(), x.Type()) {
				return false // not a buffer passed on: append(buf, ...), strconv.AppendInt(buf, ...)
			}
			if bi, ok := x.Call.Value.(*ssa.Builtin); ok && bi.Name() == "append" && len(args) == 2 && slicesOf(args[1], format) {
				return true
			}
			return copies(args[0])
		}
		return false
	}
	for _, v := range returnedFirst(fn) {
		if copies(v) {
			return true
		}
	}
	return false
}

// slicesOf reports whether v is format or a slice of it.
func slicesOf(v ssa.Value, format *ssa.Parameter) bool {
	v = unwrap(v)
	if s, ok := v.(*ssa.Slice); ok {
		v = unwrap(s.X)
	}
	return v == format
}

// comparesPercent reports whether fn compares a byte or rune with '%' or
// searches a text for it.
func comparesPercent(fn *ssa.Function) bool {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			var ops []ssa.Value
			switch x := instr.(type) {
			case *ssa.BinOp:
				if x.Op != token.EQL && x.Op != token.NEQ {
					continue
				}
				ops = []ssa.Value{x.X, x.Y}
			case *ssa.Call:
				ops = x.Call.Args
			default:
				continue
			}
			for _, op := range ops {
				if isPercent(op) {
					return true
				}
			}
		}
	}
	return false
}

// isPercent reports whether v is the constant '%' or "%".
func isPercent(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil {
		return false
	}
	switch c.Value.Kind() {
	case constant.Int:
		n, exact := constant.Int64Val(c.Value)
		return exact && n == '%'
	case constant.String:
		return constant.StringVal(c.Value) == "%"
	}
	return false
}

// returnedFirst returns the first result of each return of fn.
func returnedFirst(fn *ssa.Function) []ssa.Value {
	var vs []ssa.Value
	for _, blk := range fn.Blocks {
		if ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 {
			vs = append(vs, ret.Results[0])
		}
	}
	return vs
}

// isEmptyText reports whether v is "" or a nil []byte.
func isEmptyText(v ssa.Value) bool {
	c, ok := unwrap(v).(*ssa.Const)
	if !ok {
		return false
	}
	if c.Value == nil {
		return c.IsNil()
	}
	return c.Value.Kind() == constant.String && constant.StringVal(c.Value) == ""
}

// producingCall returns the call whose first result v is, through
// conversions (string(buf)).
func producingCall(v ssa.Value) *ssa.Call {
	for {
		switch x := unwrap(v).(type) {
		case *ssa.Convert:
			v = x.X
		case *ssa.Extract:
			call, ok := x.Tuple.(*ssa.Call)
			if !ok || x.Index != 0 {
				return nil
			}
			return call
		case *ssa.Call:
			return x
		default:
			return nil
		}
	}
}

// formattedParam returns, for the SQL text v a function sends, the format
// and args parameters of fn that a formatter formats it from, as in
// stmt, err := sqlescape.EscapeSQL(stmt, args...).
func (b *builder) formattedParam(fn *ssa.Function, v ssa.Value) (format, args int, ok bool) {
	call := producingCall(v)
	if call == nil {
		return 0, 0, false
	}
	ff, ok := b.formatterFact(call.Common())
	if !ok {
		return 0, 0, false
	}
	format = paramIndex(fn, arg(call.Common(), ff.Format))
	args = paramIndex(fn, arg(call.Common(), ff.Args))
	return format, args, format >= 0 && args >= 0
}
