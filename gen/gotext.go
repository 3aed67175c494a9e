package gen

import (
	"bytes"
	"fmt"
	"go/ast"
	pathpkg "path"
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// tableText writes the code of a run of tables (what w.table renders) as
// gofmt prints it, straight to text: building and printing jennifer's tree
// for every table of a large schema, and gofmt'ing it, cost most of
// fencegen's own time. The declarations are a fixed form around the
// tables' names and sqlc's params, so the text is laid out as gofmt lays
// it out: struct fields and the keys of composite literals aligned, a
// multi-line value breaking the alignment. Tables outside that form (names
// that need quoting, non-ASCII identifiers, keys long enough for gofmt's
// alignment heuristics, an import jennifer would rename) are refused, and
// renderTables renders them with jennifer; TestTableTextMatchesJennifer
// compares both renderings.
type tableText struct {
	w       *goWriter
	pkg     string
	imports map[string]string // path -> local name, as jennifer names it in withFile
	order   []string          // the paths of imports in the order they were added
	hints   map[string]string // path -> local name jennifer is told (withFile)
	body    bytes.Buffer
}

func (base goWriter) newTableText(pkg string) *tableText {
	tt := &tableText{w: &base, pkg: pkg, imports: map[string]string{}, hints: map[string]string{pgxPath: "pgx"}}
	for local, path := range base.sqlc.imports {
		if local != pathpkg.Base(path) {
			tt.hints[path] = local
		}
	}
	return tt
}

// textStdlib are the standard library packages the tables' code may name,
// with their package names (jennifer imports them without an alias).
var textStdlib = map[string]string{
	"context": "context", "database/sql": "sql", "math": "math", "time": "time",
	"net": "net", "net/netip": "netip", "encoding/json": "json",
}

// use returns the local name of path in the file, importing it; false
// if jennifer would name it differently (a clash, an unknown standard
// library package).
func (tt *tableText) use(path string) (string, bool) {
	if name, ok := tt.imports[path]; ok {
		return name, true
	}
	name, ok := tt.hints[path]
	if !ok {
		if name, ok = textStdlib[path]; !ok {
			first, _, _ := strings.Cut(path, "/")
			if !strings.Contains(first, ".") {
				return "", false
			}
			name = guessImportAlias(path)
		}
	}
	if jen.IsReservedWord(name) {
		return "", false
	}
	for _, other := range tt.imports {
		if other == name {
			return "", false
		}
	}
	tt.imports[path] = name
	tt.order = append(tt.order, path)
	return name, true
}

// guessImportAlias is jennifer's guessAlias: the path's last element, lower
// case, letters and digits only, without leading digits.
func guessImportAlias(path string) string {
	alias := strings.TrimSuffix(path, "/")
	alias = strings.ToLower(alias[strings.LastIndexByte(alias, '/')+1:])
	alias = strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			return r
		}
		return -1
	}, alias)
	alias = strings.TrimLeft(alias, "0123456789")
	if alias == "" {
		return "pkg"
	}
	return alias
}

// file is the gofmt'd file of the tables written so far.
func (tt *tableText) file() []byte {
	var out bytes.Buffer
	fmt.Fprintf(&out, "package %s\n\n", tt.pkg)
	specs := map[string]string{}
	for path, name := range tt.imports {
		spec := strconv.Quote(path)
		if _, hinted := tt.hints[path]; !hinted && textStdlib[path] == "" {
			spec = name + " " + spec // jennifer aliases a guessed name
		}
		specs[path] = spec
	}
	writeImports(&out, specs)
	out.Write(bytes.TrimPrefix(tt.body.Bytes(), []byte("\n")))
	return out.Bytes()
}

// table appends t's code, or reports false and appends nothing.
func (tt *tableText) table(t *fencedTable) bool {
	name := t.QualifiedName()
	if !plainName.MatchString(name) || !isASCIIIdent(t.GoName) {
		return false
	}
	size, imported := tt.body.Len(), len(tt.imports)
	for _, op := range tt.w.ops(t) {
		if !tt.write(t, op) {
			tt.body.Truncate(size)
			for _, path := range tt.order[imported:] {
				delete(tt.imports, path)
			}
			tt.order = tt.order[:imported]
			return false
		}
	}
	return true
}

// keyValue is one element of a composite literal; value may span lines.
type keyValue struct{ key, value string }

// write appends one params struct and its method, as w.write renders them.
func (tt *tableText) write(t *fencedTable, op writeOp) bool {
	w, b := tt.w, &tt.body
	fields, ok := w.sqlc.structs[op.query+"Params"]
	if !ok {
		return false
	}
	name := op.verb + t.GoName
	var decl [][2]string // field name, type
	var lit []keyValue
	rng := fullRange
	for _, fl := range fields {
		if !isASCIIIdent(fl.Name) {
			return false
		}
		if fl.Name == structName(tokenParam) {
			conv, err := w.tokenConv(t, fl.Type)
			if err != nil {
				return false
			}
			rng = columnRange(w.engine, t.Fence.Type).intersect(goIntRange(conv.Plain))
			value, ok := tt.toDriver(conv)
			if !ok {
				return false
			}
			lit = append(lit, keyValue{fl.Name, value})
			continue
		}
		typ, ok := tt.typeText(fl.Type)
		if !ok {
			return false
		}
		decl = append(decl, [2]string{fl.Name, typ})
		lit = append(lit, keyValue{fl.Name, "arg." + fl.Name})
	}
	var key []keyValue
	for _, fl := range w.sqlc.structs[fenceQuery(t)+"Params"] {
		key = append(key, keyValue{fl.Name, "arg." + fl.Name})
	}
	ctx, ok := tt.use("context")
	if len(decl) == 0 || len(key) == 0 || !ok {
		return false
	}
	args, ok := composite(lit, 1)
	if !ok {
		return false
	}
	keyArgs, ok := composite(key, 1)
	if !ok {
		return false
	}

	fmt.Fprintf(b, "\n// %sParams holds the columns %s writes or matches; the token sets the fence.\n", name, name)
	fmt.Fprintf(b, "type %sParams struct {\n", name)
	b.WriteString(structFields(decl))
	b.WriteString("}\n\n")
	fmt.Fprintf(b, "// %s %s\n", name, op.doc)
	if op.upsert {
		b.WriteString("// It returns a *StaleError if a newer token holds the row.\n")
	} else {
		b.WriteString("// It returns a *StaleError if a newer token holds the row and a *NotFoundError if no row has the key.\n")
	}
	fmt.Fprintf(b, "func (f *Fenced) %s(ctx %s.Context, token Token, arg %sParams) error {\n", name, ctx, name)
	table := strconv.Quote(t.QualifiedName())
	if rng != fullRange {
		lo, ok1 := tt.intConst(rng.min)
		hi, ok2 := tt.intConst(rng.max)
		if !ok1 || !ok2 {
			return false
		}
		fmt.Fprintf(b, "\tif err := checkTokenRange(%s, token, %s, %s); err != nil {\n\t\treturn err\n\t}\n", table, lo, hi)
	}
	call := fmt.Sprintf("f.q.%s(ctx, %sParams%s)", op.query, op.query, args)
	applied := "n > 0"
	if w.engine == MySQL && op.upsert {
		// As writeBody: the stale marker travels in LastInsertId.
		applied = "id != mysqlStaleMarker"
		fmt.Fprintf(b, "\tvar id int64\n\tres, err := %s\n\tif err == nil {\n\t\tid, err = res.LastInsertId()\n\t}\n", call)
	} else {
		fmt.Fprintf(b, "\tn, err := %s\n", call)
	}
	fmt.Fprintf(b, "\treturn settle(ctx, %s, op%s, token, %s, err, f.q.%s, %sParams%s)\n}\n",
		table, op.verb, applied, fenceQuery(t), fenceQuery(t), keyArgs)
	return true
}

// toDriver is intField.toDriver as text, at the depth of a params value.
func (tt *tableText) toDriver(f intField) (string, bool) {
	value := "token.n"
	if f.Plain != "int64" {
		value = f.Plain + "(token.n)"
	}
	if f.Field == "" {
		return value, true
	}
	pkg, ok := tt.use(f.Qual)
	if !ok {
		return "", false
	}
	fields, ok := composite([]keyValue{{f.Field, value}, {"Valid", "true"}}, 2)
	return pkg + "." + f.Name + fields, ok
}

// intConst is intConst as text.
func (tt *tableText) intConst(n int64) (string, bool) {
	for name, v := range mathConsts {
		if v == n {
			pkg, ok := tt.use("math")
			return pkg + "." + name, ok
		}
	}
	return strconv.FormatInt(n, 10), true
}

// typeText is sqlcFile.typeCode as text.
func (tt *tableText) typeText(e ast.Expr) (string, bool) {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name, isASCIIIdent(t.Name)
	case *ast.SelectorExpr:
		pkg, ok := t.X.(*ast.Ident)
		if !ok || tt.w.sqlc.imports[pkg.Name] == "" || !isASCIIIdent(t.Sel.Name) {
			return "", false
		}
		local, ok := tt.use(tt.w.sqlc.imports[pkg.Name])
		return local + "." + t.Sel.Name, ok
	case *ast.StarExpr:
		inner, ok := tt.typeText(t.X)
		return "*" + inner, ok
	case *ast.ArrayType:
		if t.Len != nil {
			return "", false
		}
		inner, ok := tt.typeText(t.Elt)
		return "[]" + inner, ok
	case *ast.MapType:
		k, ok1 := tt.typeText(t.Key)
		v, ok2 := tt.typeText(t.Value)
		return "map[" + k + "]" + v, ok1 && ok2
	case *ast.InterfaceType:
		return "interface{}", true
	case *ast.IndexExpr:
		return tt.generic(t.X, t.Index)
	case *ast.IndexListExpr:
		return tt.generic(t.X, t.Indices...)
	}
	return "", false
}

func (tt *tableText) generic(base ast.Expr, args ...ast.Expr) (string, bool) {
	out, ok := tt.typeText(base)
	params := make([]string, len(args))
	for i, a := range args {
		var argOK bool
		params[i], argOK = tt.typeText(a)
		ok = ok && argOK
	}
	return out + "[" + strings.Join(params, ", ") + "]", ok
}

// structFields lays out single-line struct fields as gofmt does: the
// types aligned one space after the longest name (a lone field is not
// padded).
func structFields(fields [][2]string) string {
	width := 0
	for _, f := range fields {
		width = max(width, len(f[0]))
	}
	var b strings.Builder
	for _, f := range fields {
		fmt.Fprintf(&b, "\t%-*s %s\n", width, f[0], f[1])
	}
	return b.String()
}

// composite writes the braces of a composite literal at indentation depth
// as jennifer's Dict renders it and gofmt lays it out: one element inline,
// several sorted by key, one a line, the values of consecutive single-line
// elements aligned. An element whose value spans lines stands alone (gofmt
// breaks the alignment around it). False for a key so long that gofmt
// would weigh key sizes to decide the alignment (go/printer's exprList).
func composite(elems []keyValue, depth int) (string, bool) {
	if len(elems) == 0 {
		return "", false
	}
	if len(elems) == 1 {
		return "{" + elems[0].key + ": " + elems[0].value + "}", !strings.Contains(elems[0].value, "\n")
	}
	for _, e := range elems {
		if len(e.key) > 40 {
			return "", false
		}
	}
	sorted := append([]keyValue(nil), elems...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].key < sorted[j].key })
	indent := strings.Repeat("\t", depth+1)
	var b strings.Builder
	b.WriteString("{\n")
	for i := 0; i < len(sorted); {
		if strings.Contains(sorted[i].value, "\n") {
			fmt.Fprintf(&b, "%s%s: %s,\n", indent, sorted[i].key, sorted[i].value)
			i++
			continue
		}
		end, width := i, 0
		for ; end < len(sorted) && !strings.Contains(sorted[end].value, "\n"); end++ {
			width = max(width, len(sorted[end].key))
		}
		for _, e := range sorted[i:end] {
			fmt.Fprintf(&b, "%s%-*s %s,\n", indent, width+1, e.key+":", e.value)
		}
		i = end
	}
	b.WriteString(indent[1:] + "}")
	return b.String(), true
}

// isASCIIIdent reports whether s is an identifier of ASCII letters, digits
// and underscores, whose width in bytes is its width in gofmt's columns.
func isASCIIIdent(s string) bool {
	if s == "" || '0' <= s[0] && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
