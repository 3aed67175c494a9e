package lease

import (
	"go/ast"
	"go/types"
)

// A lock-holding object's methods run under its lock because its users
// call them between Lock and Unlock (objects.go). A method that only tests
// call (a backend's Delete, exercised by a shared test helper that takes a
// *testing.T) is run under the lock by nobody, and a finding there is about
// a write the program never makes. A standalone run sees the program's
// callers: NewProgram records, from the syntax of every package loaded from
// source, the methods that code outside tests calls or takes as a value,
// directly or through an interface method (then any method of that name
// and signature counts, which errs towards keeping methods under the
// lock). Test code is a _test.go file, or a function with a *testing.T,
// *testing.B, *testing.F or testing.TB parameter and the closures in it.
//
// Callers in packages the run does not load are not seen: run over the
// whole module (./...) for the full picture. Under go vet -vettool there is
// no Program, and every method of the object counts, as before.

// calledKey names a method that is called: its full name, or for a method
// of an interface, its name and signature (any implementation may run).
func calledKey(fn *types.Func) string {
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		return "interface " + fn.Name() + signatureKey(fn)
	}
	return fn.Origin().FullName()
}

// addCallers records the methods pkg's code outside tests refers to.
func (p *Program) addCallers(pkg ProgramPackage) {
	for _, file := range pkg.Files {
		if inTestFile(pkg.Fset, file.Pos()) {
			continue
		}
		for _, decl := range file.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && isTestHelper(pkg.Info, fd) {
				continue
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if s := pkg.Info.Selections[sel]; s != nil && s.Kind() != types.FieldVal {
					if fn, ok := s.Obj().(*types.Func); ok {
						p.called[calledKey(fn)] = true
					}
				}
				return true
			})
		}
	}
}

// isTestHelper reports whether fd takes a *testing.T, *testing.B,
// *testing.F or testing.TB: a test, or a helper only tests call.
func isTestHelper(info *types.Info, fd *ast.FuncDecl) bool {
	for _, field := range fd.Type.Params.List {
		t := info.TypeOf(field.Type)
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		for _, name := range []string{"T", "B", "F", "TB"} {
			if isNamed(t, "testing", name) {
				return true
			}
		}
	}
	return false
}

// calledOutsideTests reports whether code of the program that is not a
// test calls the method fn or takes it as a value. Without a program, or
// when a package was summarized without its syntax, callers are not known
// and it reports true.
func (p *Program) calledOutsideTests(fn *types.Func) bool {
	if p == nil || !p.callersKnown || fn == nil {
		return true
	}
	return p.called[calledKey(fn)] || p.called["interface "+fn.Name()+signatureKey(fn)]
}
