package lease

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Real applications reach their stores and locks through interfaces of
// their own: the lease region calls s.store.InsertRun, and the type that
// writes (a Postgres store in a sibling package that main wires in) is
// nowhere in the caller's imports, so no fact can flow to the caller. A
// Program is the module-wide summary that closes that gap in a standalone
// run: a first pass computes the lease facts of every package loaded from
// source, NewProgram keeps the methods of their types that have facts, and
// the passes after it (analyzers made by WithProgram, or a FactAnalyzer
// given the Program) resolve each call through an interface to those
// implementations (dispatch.go).
//
// A Program holds only strings and copies of facts, never objects of the
// pass that made it, so it can serve a later pass that type-checked the same
// packages again: implementations are matched to interfaces by method names
// and signatures written with full package paths. It is immutable once
// made and safe for concurrent use.
type Program struct {
	// pkgs holds the paths of the program's packages: only calls through
	// interfaces declared there (the application's own) are resolved.
	pkgs map[string]bool
	// methods maps a method name to the program's methods of that name
	// that have facts, sorted by their type's package path and name.
	methods map[string][]*implMethod
	// called holds the methods that code outside tests calls
	// (programcallers.go); callersKnown reports that every package came
	// with its syntax, so that called is complete for the program.
	called       map[string]bool
	callersKnown bool
	// schema merges the schemas the program's packages embed (SchemaFact):
	// an application's migrations often sit in a package only its main
	// imports.
	schema        map[string]*SchemaTable
	schemaChanges []SchemaChange
	// files is the schema of the SQL files the driver passed
	// (ReadSchemaFiles), or nil.
	files *SchemaFact
	// localSQL says the program's only SQL databases are SQLite files of
	// its own node (localsql.go); seed marks the Program SeedProgram made
	// for the first summary pass, which knows nothing else.
	localSQL, seed bool
	// handOffs lists, by the path of the package that declares them, the
	// functions other packages hand over to run under a lease; entries
	// holds those of the run's roots by full name (entries.go).
	handOffs map[string][]HandOff
	entries  map[string]HandOff
	entered  map[string]bool // the paths of the packages of entries
	// sets lists the calls of other packages' methods named for leading
	// with true (leadersets.go).
	sets []LeaderSet
}

// A programType is a named type of the program whose method set has a
// method with lease facts.
type programType struct {
	pkgPath string
	path    string            // "example.com/app/pgstore.Store"
	sigs    map[string]string // every method of *T: name → signature key
}

// An implMethod is a method of a program type, with its lease facts.
type implMethod struct {
	typ      *programType
	method   string // "InsertRun"
	name     string // "*pgstore.Store.InsertRun"
	full     string // "(*example.com/app/pgstore.Store).InsertRun"
	sig      string
	role     *RoleFact
	writes   *WritesFact
	fenced   *FencedByParamFact
	cas      *CASFact
	converge *ConvergeFact
	callback *CallbackParamFact
	// runs lists the func parameters it runs, in a goroutine
	// (GoParamFact) or before it returns (RunParamFact).
	runs []int
}

// dispatchedRoles are the roles a call through an interface takes from its
// implementations.
const dispatchedRoles = RoleAcquire | RoleTryAcquire | RoleRelease | RoleRenew | RoleCheck | RoleWrite | RoleFenced

// A ProgramPackage is a package of the program loaded from source, with the
// lease facts a first pass computed for it and its dependencies.
type ProgramPackage struct {
	Types *types.Package
	Fset  *token.FileSet
	// Fact reports whether obj has a lease fact of fact's type, and copies
	// it there (checker.Action.ObjectFact).
	Fact func(obj types.Object, fact analysis.Fact) bool
	// Files and Info are the package's syntax and its types, for the
	// summary of the methods that code outside tests calls.
	Files []*ast.File
	Info  *types.Info
	// Schema is the schema the package embeds, or nil.
	Schema *SchemaFact
	// HandOffs lists the functions of other packages it hands over to run
	// under a lease (HandOffsFact).
	HandOffs []HandOff
	// LeaderSets lists its calls of other packages' methods named for
	// leading with true (LeaderSetsFact).
	LeaderSets []LeaderSet
}

// NewProgram summarizes the named types of pkgs whose methods have lease
// facts: they write, write fenced by a parameter, acquire, release, renew or
// check. Types declared in _test.go files are test doubles and are left out,
// as are types whose methods do none of that (in-memory fakes); a package
// loaded twice (as itself and as its test variant) counts once.
//
// files is the schema of SQL files the driver read (ReadSchemaFiles), or
// nil: every package's analysis reads it.
func NewProgram(pkgs []ProgramPackage, files *SchemaFact) *Program {
	p := &Program{pkgs: make(map[string]bool), methods: make(map[string][]*implMethod),
		called: make(map[string]bool), callersKnown: true, files: files, handOffs: make(map[string][]HandOff),
		localSQL: localSQLOnly(typesOf(pkgs))}
	seen := make(map[string]bool)
	var listed []HandOff
	for _, pkg := range pkgs {
		p.pkgs[pkg.Types.Path()] = true
		listed = append(listed, pkg.HandOffs...)
		p.sets = append(p.sets, pkg.LeaderSets...)
		if pkg.Schema != nil {
			p.schema = mergeTables(p.schema, pkg.Schema.Tables)
			p.schemaChanges = append(p.schemaChanges, pkg.Schema.Changes...)
		}
		if pkg.Info == nil {
			p.callersKnown = false
		} else {
			p.addCallers(pkg)
		}
		scope := pkg.Types.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			key := pkg.Types.Path() + "." + name
			if !ok || tn.IsAlias() || seen[key] || inTestFile(pkg.Fset, tn.Pos()) {
				continue
			}
			methods := summarizeType(pkg, tn)
			if len(methods) > 0 {
				seen[key] = true
			}
			for _, m := range methods {
				p.methods[m.method] = append(p.methods[m.method], m)
			}
		}
	}
	for _, ms := range p.methods {
		slices.SortFunc(ms, func(x, y *implMethod) int {
			return cmp.Or(cmp.Compare(x.typ.pkgPath, y.typ.pkgPath), cmp.Compare(x.name, y.name))
		})
	}
	p.resolveHandOffs(listed)
	return p
}

// Empty reports whether the program has no method with lease facts and no
// schema, so that a further pass would learn nothing from it.
func (p *Program) Empty() bool {
	return p == nil || len(p.methods) == 0 && len(p.schema) == 0 && len(p.schemaChanges) == 0 && p.files == nil
}

// Settled reports whether a pass with p would resolve nothing that the pass
// with prev, the summary before it, did not: every method that code outside
// tests calls through an interface has the facts it had in prev, and the
// calls of methods named for leading are the same. Each pass resolves one
// more level of interfaces, so the driver summarizes again until the
// program settles.
func (p *Program) Settled(prev *Program) bool {
	return maps.EqualFunc(p.dispatched(), prev.dispatched(), (*implMethod).sameFacts) &&
		reflect.DeepEqual(p.leaderSets(), prev.leaderSets())
}

// dispatched returns, by full name, the methods with facts that a call
// through an interface may reach: those whose name and signature code
// outside tests calls through an interface, or all of them when callers are
// not known.
func (p *Program) dispatched() map[string]*implMethod {
	out := make(map[string]*implMethod)
	if p == nil {
		return out
	}
	for _, ms := range p.methods {
		for _, m := range ms {
			if !p.callersKnown || p.called["interface "+m.method+m.sig] {
				out[m.full] = m
			}
		}
	}
	return out
}

// sameFacts reports whether m and o have the same signature and the same
// facts, apart from the words that name a write or lock and the
// implementation it came through: a further pass only lengthens those
// ("via" one more hop), which changes a message but no finding.
func (m *implMethod) sameFacts(o *implMethod) bool {
	return m.sig == o.sig && slices.Equal(m.runs, o.runs) &&
		reflect.DeepEqual(unnamed(m.role, m.writes, m.fenced, m.cas, m.converge, m.callback),
			unnamed(o.role, o.writes, o.fenced, o.cas, o.converge, o.callback))
}

// unnamed returns copies of facts, pointers to structs or nil, with their
// naming fields, and those of the structs they hold in slices, zeroed.
func unnamed(facts ...any) []any {
	out := make([]any, len(facts))
	for i, f := range facts {
		v := reflect.ValueOf(f)
		if v.IsNil() {
			continue
		}
		c := reflect.New(v.Elem().Type())
		c.Elem().Set(v.Elem())
		zeroNames(c.Elem())
		out[i] = c.Interface()
	}
	return out
}

// namingField reports whether a fact's field of that name names a write,
// lock or call and where the program makes it, rather than saying what it
// does.
func namingField(name string) bool {
	switch name {
	case "What", "Dispatch", "Site", "Sites", "EachImpl", "Implementations", "EachImplOf":
		return true
	}
	return false
}

// zeroNames zeroes the naming fields of the struct v, and of the structs in
// its slice fields, copying those slices first.
func zeroNames(v reflect.Value) {
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch {
		case namingField(name):
			f.SetZero()
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Struct && !f.IsNil():
			elems := reflect.MakeSlice(f.Type(), f.Len(), f.Len())
			reflect.Copy(elems, f)
			for j := range elems.Len() {
				zeroNames(elems.Index(j))
			}
			f.Set(elems)
		}
	}
}

// summarizeType returns the methods of *tn that have lease facts.
func summarizeType(pkg ProgramPackage, tn *types.TypeName) []*implMethod {
	named, ok := tn.Type().(*types.Named)
	if !ok || named.TypeParams().Len() > 0 || types.IsInterface(named) {
		return nil
	}
	mset := types.NewMethodSet(types.NewPointer(named))
	t := &programType{pkgPath: pkg.Types.Path(), path: typePath(named), sigs: make(map[string]string, mset.Len())}
	var methods []*implMethod
	for sel := range mset.Methods() {
		fn := sel.Obj().(*types.Func)
		sig := signatureKey(fn)
		t.sigs[fn.Name()] = sig
		if isAbstract(fn) {
			continue // promoted from an embedded interface: no implementation
		}
		m := &implMethod{typ: t, method: fn.Name(), name: implName(named, fn), full: fn.Origin().FullName(), sig: sig}
		var role RoleFact
		if pkg.Fact(fn, &role) && role.Role&dispatchedRoles != 0 {
			m.role = &role
		}
		var wf WritesFact
		if pkg.Fact(fn, &wf) {
			m.writes = &wf
		}
		var fp FencedByParamFact
		if pkg.Fact(fn, &fp) {
			m.fenced = &fp
		}
		var cas CASFact
		if pkg.Fact(fn, &cas) {
			m.cas = &cas
		}
		var cf ConvergeFact
		if pkg.Fact(fn, &cf) {
			m.converge = &cf
		}
		var cb CallbackParamFact
		if pkg.Fact(fn, &cb) {
			m.callback = &cb
		}
		m.runs = runParams(pkg.Fact, fn)
		if m.role != nil || m.writes != nil || m.fenced != nil || m.cas != nil || m.converge != nil || m.callback != nil || len(m.runs) > 0 {
			methods = append(methods, m)
		}
	}
	return methods
}

// dispatch names the method as the implementation a fact came from.
func (m *implMethod) dispatch() Dispatch {
	return Dispatch{Type: m.typ.path, Method: m.method, Sig: m.sig}
}

// typePath names a named type with its package's path:
// "example.com/app/pgstore.Store".
func typePath(named *types.Named) string {
	obj := named.Obj()
	if obj.Pkg() == nil {
		return obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// implementers returns the program's methods that implement the interface
// method fn: same name and signature, on a type that has every method of
// fn's interface. Types of skipPkg (the package being analyzed, whose own
// facts are fresher) are left out.
func (p *Program) implementers(fn *types.Func, iface *types.Interface, skipPkg string) []*implMethod {
	if p == nil {
		return nil
	}
	var out []*implMethod
	sig := signatureKey(fn)
	for _, m := range p.methods[fn.Name()] {
		if m.sig == sig && m.typ.pkgPath != skipPkg && m.typ.implements(iface) {
			out = append(out, m)
		}
	}
	return out
}

// implements reports whether the type has every method of iface.
func (t *programType) implements(iface *types.Interface) bool {
	for m := range iface.Methods() {
		if sig, ok := t.sigs[m.Name()]; !ok || sig != signatureKey(m) || !m.Exported() && m.Pkg().Path() != t.pkgPath {
			return false
		}
	}
	return true
}

// relevantTo reports whether an interface declared in pkg or in a package
// it imports has a method that one of the program's methods with facts
// could implement: only then can the program change pkg's model.
func (p *Program) relevantTo(pkg *types.Package) bool {
	if p == nil {
		return false
	}
	if p.entered[pkg.Path()] {
		return true
	}
	if len(p.methods) == 0 {
		return false
	}
	for _, q := range append([]*types.Package{pkg}, pkg.Imports()...) {
		if !p.pkgs[q.Path()] {
			continue
		}
		scope := q.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			iface, ok := tn.Type().Underlying().(*types.Interface)
			if !ok {
				continue
			}
			for m := range iface.Methods() {
				for _, im := range p.methods[m.Name()] {
					if im.sig == signatureKey(m) {
						return true
					}
				}
			}
		}
	}
	return false
}

// signatureKey writes fn's signature without names and with full package
// paths, the same for a package and for its test variant:
// "(context.Context, example.com/app/domain.Run) error". Aliases are
// written as the types they stand for (typeKey), so that a method spelled
// with golang.org/x/net/context's Context, or with any, implements an
// interface spelled with context.Context, or with interface{}, as the type
// checker says it does.
func signatureKey(fn *types.Func) string {
	sig := fn.Signature()
	var sb strings.Builder
	sb.WriteByte('(')
	for i := range sig.Params().Len() {
		if i > 0 {
			sb.WriteString(", ")
		}
		t := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			sb.WriteString("...")
			t = t.(*types.Slice).Elem()
		}
		sb.WriteString(typeKey(t))
	}
	sb.WriteString(") (")
	for i := range sig.Results().Len() {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(typeKey(sig.Results().At(i).Type()))
	}
	sb.WriteByte(')')
	return sb.String()
}

// typeKey writes t as types.TypeString does, with every alias in it, at
// any depth, replaced by the type it stands for. Struct and interface
// literals are written as they are: an alias inside one is rare in a
// method's signature, and only leaves two identical signatures unmatched.
func typeKey(t types.Type) string {
	switch t := t.(type) {
	case *types.Alias:
		return typeKey(types.Unalias(t))
	case *types.Pointer:
		return "*" + typeKey(t.Elem())
	case *types.Slice:
		return "[]" + typeKey(t.Elem())
	case *types.Array:
		return "[" + strconv.FormatInt(t.Len(), 10) + "]" + typeKey(t.Elem())
	case *types.Map:
		return "map[" + typeKey(t.Key()) + "]" + typeKey(t.Elem())
	case *types.Chan:
		prefix := map[types.ChanDir]string{types.SendRecv: "chan ", types.SendOnly: "chan<- ", types.RecvOnly: "<-chan "}[t.Dir()]
		return prefix + "(" + typeKey(t.Elem()) + ")"
	case *types.Signature:
		return "func" + signatureKey(types.NewFunc(token.NoPos, nil, "", t))
	case *types.Interface:
		if t.Empty() {
			return "interface{}" // TypeString writes the universe's as "any"
		}
	case *types.Named:
		args := t.TypeArgs()
		if args.Len() == 0 {
			return types.TypeString(t, nil)
		}
		keys := make([]string, args.Len())
		for i := range args.Len() {
			keys[i] = typeKey(args.At(i))
		}
		return typePath(t) + "[" + strings.Join(keys, ", ") + "]"
	}
	return types.TypeString(t, nil)
}

// implName names a method as the implementation of an interface call, for
// diagnostics: "*pgstore.Store.InsertRun", "pgstore.Store.Get".
func implName(named *types.Named, fn *types.Func) string {
	obj := named.Obj()
	name := obj.Name() + "." + fn.Name()
	if obj.Pkg() != nil {
		name = obj.Pkg().Name() + "." + name
	}
	if recv := fn.Signature().Recv(); recv != nil {
		if _, ptr := types.Unalias(recv.Type()).(*types.Pointer); ptr {
			name = "*" + name
		}
	}
	return name
}

// inTestFile reports whether pos is in a _test.go file.
func inTestFile(fset *token.FileSet, pos token.Pos) bool {
	f := fset.File(pos)
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}
