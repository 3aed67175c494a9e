package conformance

import (
	"fmt"
	"go/types"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzers/lease"
)

// checkCatalog checks that every catalog row names a symbol of the real
// package (of some version or fork the modules import), declared on the
// receiver the analyzers will see. The conformance modules must import
// (directly or not) every catalogued package.
func checkCatalog(t *testing.T, mods ...*module) {
	byPath := make(map[string][]*types.Package)
	for _, m := range mods {
		for _, p := range m.types {
			np := lease.CanonicalPath(p.Path())
			byPath[np] = append(byPath[np], p)
		}
	}
	rows := lease.Catalog()
	if len(rows) == 0 {
		t.Fatal("lease.Catalog() is empty")
	}
	for _, row := range rows {
		pkgs := byPath[row.Pkg]
		if len(pkgs) == 0 {
			t.Errorf("%s: the conformance module imports no package %s (any major version); "+
				"add realistic code that uses it to testdata/conformance", rowString(row), row.Pkg)
			continue
		}
		if err := findSymbol(pkgs, row); err != nil {
			t.Errorf("%s: %v", rowString(row), err)
		}
	}
}

// checkSpawners checks that every Spawner names a function or method of
// the real package, with a func parameter at its Arg (an event handler
// interface for a handler registrar).
func checkSpawners(t *testing.T, mods ...*module) {
	byPath := make(map[string][]*types.Package)
	for _, m := range mods {
		for _, p := range m.types {
			np := lease.CanonicalPath(p.Path())
			byPath[np] = append(byPath[np], p)
		}
	}
	for _, sp := range lease.Spawners() {
		name := sp.Pkg + "." + sp.Name
		if sp.Recv != "" {
			name = sp.Pkg + "." + sp.Recv + "." + sp.Name
		}
		pkgs := byPath[sp.Pkg]
		if len(pkgs) == 0 {
			t.Errorf("spawner %s: the conformance module imports no package %s; add realistic code that uses it", name, sp.Pkg)
			continue
		}
		var errs []string
		for _, pkg := range pkgs {
			err := spawnerParam(pkg, sp)
			if err == nil {
				errs = nil
				break
			}
			errs = append(errs, fmt.Sprintf("%s: %v", pkg.Path(), err))
		}
		if errs != nil {
			t.Errorf("spawner %s: %s", name, strings.Join(errs, "; "))
		}
	}
}

// spawnerParam reports why pkg has no spawner sp taking a function (or,
// for a handler registrar, an interface) at sp.Arg, or nil.
func spawnerParam(pkg *types.Package, sp lease.Spawner) error {
	var fn *types.Func
	if sp.Recv == "" {
		fn, _ = pkg.Scope().Lookup(sp.Name).(*types.Func)
	} else if tn, ok := pkg.Scope().Lookup(sp.Recv).(*types.TypeName); ok {
		obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, pkg, sp.Name)
		fn, _ = obj.(*types.Func)
		if fn != nil && receiverName(fn) != sp.Recv {
			return fmt.Errorf("%s is declared on %s", sp.Name, receiverName(fn))
		}
	}
	if fn == nil {
		return fmt.Errorf("no func or method %s", sp.Name)
	}
	params := fn.Signature().Params()
	if sp.Retry {
		return retriedParam(fn)
	}
	if sp.Arg >= params.Len() {
		return fmt.Errorf("%s has no parameter %d", sp.Name, sp.Arg)
	}
	under := params.At(sp.Arg).Type().Underlying()
	if _, ok := under.(*types.Signature); ok && sp.Handler == nil {
		return nil
	}
	if _, ok := under.(*types.Interface); ok && sp.Handler != nil {
		return nil
	}
	return fmt.Errorf("parameter %d of %s is a %s", sp.Arg, sp.Name, params.At(sp.Arg).Type())
}

// retriedParam reports why fn, a retry library's function, has no func
// parameter that returns an error last (the function it retries), or nil.
func retriedParam(fn *types.Func) error {
	params := fn.Signature().Params()
	for i := range params.Len() {
		if sig, ok := params.At(i).Type().Underlying().(*types.Signature); ok {
			if res := sig.Results(); res.Len() > 0 && types.Identical(res.At(res.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
				return nil
			}
			return fmt.Errorf("the first func parameter of %s, %s, does not return an error last", fn.Name(), params.At(i).Type())
		}
	}
	return fmt.Errorf("%s takes no func to retry", fn.Name())
}

func rowString(row lease.API) string {
	what := "func"
	switch {
	case row.Field:
		what = "field"
	case row.Var:
		what = "var"
	case row.Recv != "":
		what = "method"
	}
	recv := row.Recv
	if recv != "" {
		recv += "."
	}
	return fmt.Sprintf("catalog row %s %s.%s%s (%s)", what, row.Pkg, recv, row.Name, row.System)
}

// findSymbol reports why none of pkgs (the imported versions of the row's
// package) has the row's symbol, or nil.
func findSymbol(pkgs []*types.Package, row lease.API) error {
	var errs []string
	for _, pkg := range pkgs {
		var err error
		switch {
		case row.Field:
			err = findField(pkg, row.Recv, row.Name)
		case row.Var:
			err = findVar(pkg, row.Name)
		case row.Recv == "":
			err = findFunc(pkg, row.Name)
		case row.Recv == "*":
			err = findAnyMethod(pkg, row.Name)
		default:
			err = findMethod(pkg, row.Recv, row.Name)
		}
		if err == nil {
			return nil
		}
		errs = append(errs, fmt.Sprintf("%s: %v", pkg.Path(), err))
	}
	return fmt.Errorf("%s", strings.Join(errs, "; "))
}

func findFunc(pkg *types.Package, name string) error {
	if _, ok := pkg.Scope().Lookup(name).(*types.Func); !ok {
		return fmt.Errorf("no func %s", name)
	}
	return nil
}

func findVar(pkg *types.Package, name string) error {
	if _, ok := pkg.Scope().Lookup(name).(*types.Var); !ok {
		return fmt.Errorf("no package-level var %s", name)
	}
	return nil
}

func findField(pkg *types.Package, recv, name string) error {
	tn, ok := pkg.Scope().Lookup(recv).(*types.TypeName)
	if !ok {
		return fmt.Errorf("no type %s", recv)
	}
	st, ok := tn.Type().Underlying().(*types.Struct)
	if !ok {
		return fmt.Errorf("%s is not a struct", recv)
	}
	for f := range st.Fields() {
		if f.Name() == name {
			return nil
		}
	}
	if obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, pkg, name); obj != nil {
		return fmt.Errorf("%s.%s is promoted from an embedded field, not declared in %s", recv, name, recv)
	}
	return fmt.Errorf("struct %s has no field %s", recv, name)
}

// findMethod requires the method to be declared on recv (for an interface,
// declared in it rather than in an embedded interface): the analyzers match
// the receiver of the callee's declaration.
func findMethod(pkg *types.Package, recv, name string) error {
	tn, ok := pkg.Scope().Lookup(recv).(*types.TypeName)
	if !ok {
		return fmt.Errorf("no type %s", recv)
	}
	obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, pkg, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return fmt.Errorf("type %s has no method %s", recv, name)
	}
	if got := receiverName(fn); got != recv {
		return fmt.Errorf("%s.%s is declared on %s (embedded), so calls resolve to (%s).%s", recv, name, got, got, name)
	}
	return nil
}

// findAnyMethod requires some type or interface declared in pkg to declare
// a method called name.
func findAnyMethod(pkg *types.Package, name string) error {
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		if declaresMethod(tn.Type(), name) {
			return nil
		}
	}
	return fmt.Errorf("no type or interface in the package declares a method %s", name)
}

func declaresMethod(t types.Type, name string) bool {
	if iface, ok := t.Underlying().(*types.Interface); ok {
		for m := range iface.ExplicitMethods() {
			if m.Name() == name {
				return true
			}
		}
		return false
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	for m := range named.Methods() {
		if m.Name() == name {
			return true
		}
	}
	return false
}

// receiverName is the name of fn's receiver type without '*'.
func receiverName(fn *types.Func) string {
	recv := fn.Signature().Recv()
	if recv == nil {
		return ""
	}
	t := types.Unalias(recv.Type())
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		return n.Origin().Obj().Name()
	}
	return ""
}

// unserved lists the forks the conformance modules cannot compile against,
// since the Go module proxy does not serve them in a form that builds;
// README.md says so too.
var unserved = map[string]string{
	"gopkg.in/redis.v6":                         "proxy.golang.org serves v6.15.9 (the last), whose packages import github.com/go-redis/redis/internal: another module's internal packages",
	"github.com/volatiletech/sqlboiler/queries": "proxy.golang.org refuses github.com/volatiletech/sqlboiler and its /v4 (403, not available) since the module moved to github.com/aarondl/sqlboiler",
}

// olderRelease lists the forks that are an older release of the package
// they map to, whose API is a part of its: there a fork shares the API when
// it names a few of the rows, each one the release has.
var olderRelease = map[string]string{
	"gopkg.in/redsync.v1": "v1.0.1's Mutex has Lock, Unlock and Extend; the context methods, TryLock and Valid came later",
}

// checkForks checks that every fork the catalog lists is compiled against
// (a package of the conformance modules imports it) unless the proxy does
// not serve it, that it shares the API of the package it forks (most rows
// of that package name a symbol of the fork), and that the fork list and
// unserved agree.
func checkForks(t *testing.T, mods ...*module) {
	imported := make(map[string]*types.Package)
	for _, m := range mods {
		for _, p := range m.types {
			imported[normalizePath(p.Path())] = p
		}
	}
	rows := lease.Catalog()
	listed := make(map[string]bool)
	for _, f := range lease.Forks() {
		listed[f.Path] = true
		pkg := imported[f.Path]
		if reason, ok := unserved[f.Path]; ok {
			if pkg != nil {
				t.Errorf("fork %s is imported by the conformance modules, but unserved says %q: drop it from unserved", f.Path, reason)
			}
			continue
		}
		if pkg == nil {
			t.Errorf("fork %s (%s) is imported by no package of the conformance modules: "+
				"add a case to testdata/conformance/legacy, or list it in unserved with the reason", f.Path, f.What)
			continue
		}
		var found, total int
		for _, row := range rows {
			if row.Pkg != f.Pkg {
				continue
			}
			if row.Recv != "" && pkg.Scope().Lookup(row.Recv) == nil {
				continue // a type added after the fork (GORM's generics API, v1.30) is not part of its API
			}
			total++
			if findSymbol([]*types.Package{pkg}, row) == nil {
				found++
			}
		}
		t.Logf("fork %s: %d of %d rows of %s", f.Path, found, total, f.Pkg)
		if _, ok := olderRelease[f.Path]; ok && found >= 3 {
			continue
		}
		if total == 0 || 2*found < total {
			t.Errorf("fork %s names only %d of the %d catalog rows of %s: it does not share that package's API", f.Path, found, total, f.Pkg)
		}
	}
	for path := range unserved {
		if !listed[path] {
			t.Errorf("unserved lists %s, which is not one of lease.Forks()", path)
		}
	}
}

// normalizePath removes major-version elements from an import path, as
// the lease catalog does (lease.normalizePath is unexported; keep the two
// in step).
func normalizePath(path string) string {
	if i := strings.LastIndex(path, "/vendor/"); i >= 0 {
		path = path[i+len("/vendor/"):]
	}
	elems := strings.Split(path, "/")
	kept := elems[:1]
	for _, e := range elems[1:] {
		if !isMajorVersion(e) {
			kept = append(kept, e)
		}
	}
	return strings.Join(kept, "/")
}

func isMajorVersion(e string) bool {
	if len(e) < 2 || e[0] != 'v' || e == "v0" || e == "v1" {
		return false
	}
	for _, r := range e[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
