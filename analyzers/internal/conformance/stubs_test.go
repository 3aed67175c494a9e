package conformance

import (
	"fmt"
	"go/types"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/fencelint/fencelint/analyzers/internal/stubs"
	"github.com/fencelint/fencelint/analyzers/lease"
)

// stubsDir is the GOPATH of the shared stubs, relative to this package.
const stubsDir = "../stubs/testdata"

// checkStubs compares every stub package with the real package of the same
// import path in the conformance module, or in the legacy module for a
// fork's stub: each exported func, method, field, constant and variable of
// the stub must exist in the real package with the same type. The stubs may
// leave things out; they may not differ.
func checkStubs(t *testing.T, m, legacy *module) {
	real := make(map[string]*types.Package)
	for _, mod := range []*module{legacy, m} {
		for _, p := range mod.types {
			real[p.Path()] = p
		}
	}
	stubPkgs := loadStubs(t)
	for _, sp := range stubPkgs {
		rp := real[sp.Path()]
		if rp == nil {
			t.Errorf("stub %s: the conformance module does not import the real package; add code that uses it", sp.Path())
			continue
		}
		for _, diff := range comparePackages(sp, rp) {
			t.Errorf("stub %s: %s", sp.Path(), diff)
		}
	}
	checkStubsCoverCatalog(t, stubPkgs, m)
}

// checkStubsCoverCatalog requires every catalog row that exists in the real
// package to exist in the stub of that package too, if there is one, so
// fixtures can use every catalogued symbol.
func checkStubsCoverCatalog(t *testing.T, stubPkgs []*types.Package, m *module) {
	stubsByPath := make(map[string][]*types.Package)
	for _, p := range stubPkgs {
		np := normalizePath(p.Path())
		stubsByPath[np] = append(stubsByPath[np], p)
	}
	realByPath := make(map[string][]*types.Package)
	for _, p := range m.types {
		np := normalizePath(p.Path())
		realByPath[np] = append(realByPath[np], p)
	}
	for _, row := range lease.Catalog() {
		stubbed := stubsByPath[row.Pkg]
		if len(stubbed) == 0 || findSymbol(realByPath[row.Pkg], row) != nil {
			continue // not stubbed, or reported by the catalog check
		}
		if err := findSymbol(stubbed, row); err != nil {
			t.Errorf("%s: missing from the stubs: %v", rowString(row), err)
		}
	}
}

// loadStubs type-checks every stub package in GOPATH mode.
func loadStubs(t *testing.T) []*types.Package {
	t.Helper()
	var paths []string
	err := fs.WalkDir(stubs.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Ext(name) == ".go" && !slices.Contains(paths, path.Dir(name)) {
			paths = append(paths, path.Dir(name))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	gopath, err := filepath.Abs(stubsDir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes,
		Dir:  filepath.Join(gopath, "src"),
		Env:  append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOWORK=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		t.Fatal(err)
	}
	var out []*types.Package
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Fatalf("stub %s does not type-check: %v", p.PkgPath, p.Errors[0])
		}
		out = append(out, p.Types)
	}
	return out
}

// comparePackages lists how the stub's declarations differ from the real
// package's.
func comparePackages(stub, real *types.Package) []string {
	var diffs []string
	for _, name := range stub.Scope().Names() {
		sobj := stub.Scope().Lookup(name)
		robj := real.Scope().Lookup(name)
		if robj == nil {
			if sobj.Exported() {
				diffs = append(diffs, fmt.Sprintf("%s: not in the real package", name))
			}
			continue
		}
		diffs = append(diffs, compareObjects(sobj, robj)...)
	}
	return diffs
}

func compareObjects(sobj, robj types.Object) []string {
	name := sobj.Name()
	if kind(sobj) != kind(robj) {
		return []string{fmt.Sprintf("%s: stub declares a %s, real package a %s", name, kind(sobj), kind(robj))}
	}
	switch sobj := sobj.(type) {
	case *types.Func:
		return compareTypes(name, sobj.Type(), robj.Type())
	case *types.Var:
		if !sobj.Exported() {
			return nil
		}
		return compareTypes(name, sobj.Type(), robj.Type())
	case *types.Const:
		diffs := compareTypes(name, sobj.Type(), robj.Type())
		if sv, rv := sobj.Val().ExactString(), robj.(*types.Const).Val().ExactString(); sv != rv {
			diffs = append(diffs, fmt.Sprintf("%s: value %s, real %s", name, sv, rv))
		}
		return diffs
	case *types.TypeName:
		return compareTypeNames(sobj, robj.(*types.TypeName))
	}
	return nil
}

func kind(obj types.Object) string {
	switch obj := obj.(type) {
	case *types.Func:
		return "func"
	case *types.Var:
		return "var"
	case *types.Const:
		return "const"
	case *types.TypeName:
		if obj.IsAlias() {
			return "type alias"
		}
		return "type"
	}
	return fmt.Sprintf("%T", obj)
}

// compareTypeNames compares a declared type: its kind, and its exported
// fields and methods (unexported types only by their exported methods).
func compareTypeNames(stn, rtn *types.TypeName) []string {
	name := stn.Name()
	st, rt := stn.Type(), rtn.Type()
	var diffs []string
	switch su := st.Underlying().(type) {
	case *types.Struct:
		ru, ok := rt.Underlying().(*types.Struct)
		if !ok {
			return []string{fmt.Sprintf("%s: stub is a struct, real type is %s", name, typeString(rt.Underlying()))}
		}
		if stn.Exported() {
			diffs = append(diffs, compareFields(name, su, ru)...)
		}
	case *types.Interface:
		ru, ok := rt.Underlying().(*types.Interface)
		if !ok {
			return []string{fmt.Sprintf("%s: stub is an interface, real type is %s", name, typeString(rt.Underlying()))}
		}
		for m := range su.Methods() {
			if !m.Exported() {
				continue
			}
			rm := lookupInterfaceMethod(ru, m.Name())
			if rm == nil {
				diffs = append(diffs, fmt.Sprintf("%s: real interface has no method %s", name, m.Name()))
				continue
			}
			diffs = append(diffs, compareTypes(name+"."+m.Name(), m.Type(), rm.Type())...)
		}
		return diffs
	default:
		if stn.Exported() {
			diffs = append(diffs, compareTypes(name, su, rt.Underlying())...)
		}
	}
	diffs = append(diffs, compareMethods(name, st, rt)...)
	return diffs
}

func compareFields(name string, s, r *types.Struct) []string {
	var diffs []string
	for f := range s.Fields() {
		if !f.Exported() {
			continue
		}
		var rf *types.Var
		for g := range r.Fields() {
			if g.Name() == f.Name() {
				rf = g
			}
		}
		switch {
		case rf == nil:
			diffs = append(diffs, fmt.Sprintf("%s: real struct has no field %s", name, f.Name()))
		case rf.Embedded() != f.Embedded():
			diffs = append(diffs, fmt.Sprintf("%s.%s: embedded in one and not the other", name, f.Name()))
		default:
			diffs = append(diffs, compareTypes(name+"."+f.Name(), f.Type(), rf.Type())...)
		}
	}
	return diffs
}

// compareMethods compares the exported methods declared on a named type,
// receiver kind included.
func compareMethods(name string, st, rt types.Type) []string {
	sn, ok1 := types.Unalias(st).(*types.Named)
	rn, ok2 := types.Unalias(rt).(*types.Named)
	if !ok1 || !ok2 {
		return nil
	}
	var diffs []string
	for m := range sn.Methods() {
		if !m.Exported() {
			continue
		}
		var rm *types.Func
		for c := range rn.Methods() {
			if c.Name() == m.Name() {
				rm = c
			}
		}
		if rm == nil {
			diffs = append(diffs, fmt.Sprintf("%s: real type declares no method %s", name, m.Name()))
			continue
		}
		if pointerRecv(m) != pointerRecv(rm) {
			diffs = append(diffs, fmt.Sprintf("%s.%s: pointer receiver %v, real %v", name, m.Name(), pointerRecv(m), pointerRecv(rm)))
		}
		diffs = append(diffs, compareTypes(name+"."+m.Name(), m.Type(), rm.Type())...)
	}
	return diffs
}

func pointerRecv(fn *types.Func) bool {
	_, ok := fn.Signature().Recv().Type().(*types.Pointer)
	return ok
}

func lookupInterfaceMethod(iface *types.Interface, name string) *types.Func {
	for m := range iface.Methods() {
		if m.Name() == name {
			return m
		}
	}
	return nil
}

// compareTypes compares two types by their printed form (package paths
// qualify names; parameter names are ignored), since stub and real types
// come from different type-checker universes.
func compareTypes(what string, s, r types.Type) []string {
	if ss, rs := typeString(s), typeString(r); ss != rs {
		return []string{fmt.Sprintf("%s: stub has %s, real %s", what, ss, rs)}
	}
	return nil
}

func typeString(t types.Type) string {
	if sig, ok := t.(*types.Signature); ok {
		return signatureString(sig)
	}
	return types.TypeString(t, (*types.Package).Path)
}

// signatureString prints a signature without parameter names or receiver.
func signatureString(sig *types.Signature) string {
	list := func(tuple *types.Tuple, variadic bool) string {
		var parts []string
		for i := range tuple.Len() {
			t := tuple.At(i).Type()
			if variadic && i == tuple.Len()-1 {
				parts = append(parts, "..."+types.TypeString(t.(*types.Slice).Elem(), (*types.Package).Path))
				continue
			}
			parts = append(parts, typeString(t))
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprintf("func(%s) (%s)", list(sig.Params(), sig.Variadic()), list(sig.Results(), false))
}
