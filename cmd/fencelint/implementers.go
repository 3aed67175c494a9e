package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// A standalone run resolves a call through an interface of the analyzed
// packages to its implementations anywhere in the user's modules (main
// wires them in; the caller does not import them). Loading every package of
// a large module from source for that makes a first run compile the
// dependencies of parts that can implement nothing the analyzed code calls
// (argo-workflows' API server and its UI's embedded SQLite: most of an hour
// cold). implementerPackages picks, from syntax alone, the packages that
// may declare an implementation: a type whose method set may hold every
// method of an interface the analyzed packages can call through. It reads
// names only, so it keeps a superset of what type checking would find, and
// the dispatch results are those of the whole-module load.

// A methodSet is what the syntax says about the methods of a named type.
type methodSet struct {
	declared []string   // methods declared on the type
	embedded []typeName // the module's types embedded in it, or its underlying named type
	// open is set when a method may come from elsewhere: an embedded type
	// from outside the module, or one the syntax does not name plainly.
	open bool
}

// A typeName names a package-level type.
type typeName struct{ path, name string }

// A syntaxPackage is a package of the module as the parser reads it.
type syntaxPackage struct {
	path  string
	files []*ast.File
	err   bool // a file does not parse
}

// implementerPackages returns the paths of the candidates that may declare
// an implementation of an interface declared in base (the analyzed packages
// and what they import from their modules: a call can only go through an
// interface its caller sees), and of the candidates those import, so that
// facts flow into the implementations as in a whole-module load. The paths
// are sorted.
func implementerPackages(base, candidates []*packages.Package) []string {
	all := append(slices.Clone(base), candidates...)
	names := make(map[string]string) // the module's import paths → package names
	for _, p := range all {
		names[p.PkgPath] = p.Name
	}
	parsed := parsePackages(all)
	sets := make(map[string]map[string]*methodSet) // path → type name → its methods
	for _, sp := range parsed {
		for _, f := range sp.files {
			collectMethodSets(sp.path, f, names, sets)
		}
	}
	var ifaces [][]string
	seen := make(map[string]bool)
	for _, sp := range parsed[:len(base)] {
		for _, f := range sp.files {
			for _, req := range interfaceRequirements(f) {
				if key := strings.Join(req, ","); !seen[key] {
					seen[key] = true
					ifaces = append(ifaces, req)
				}
			}
		}
	}
	if len(ifaces) == 0 {
		return nil // no call to dispatch
	}
	byID := make(map[string]*packages.Package)
	for _, p := range candidates {
		byID[p.ID] = p
	}
	keep := make(map[string]bool)
	var add func(p *packages.Package)
	add = func(p *packages.Package) {
		if keep[p.PkgPath] {
			return
		}
		keep[p.PkgPath] = true
		for _, imp := range p.Imports {
			if c, ok := byID[imp.ID]; ok {
				add(c)
			}
		}
	}
	for i, sp := range parsed[len(base):] {
		if sp.err || mayImplement(sp.path, sets, ifaces) {
			add(candidates[i])
		}
	}
	var paths []string
	for path := range keep {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	return paths
}

// parsePackages parses the Go files of pkgs, in parallel, with no bodies
// resolved; the result is in pkgs' order.
func parsePackages(pkgs []*packages.Package) []syntaxPackage {
	out := make([]syntaxPackage, len(pkgs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, p := range pkgs {
		out[i].path = p.PkgPath
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			fset := token.NewFileSet()
			for _, name := range p.GoFiles {
				f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
				if err != nil {
					out[i].err = true
					return
				}
				out[i].files = append(out[i].files, f)
			}
		}()
	}
	wg.Wait()
	return out
}

// interfaceRequirements returns, for each interface type written in f (a
// declaration or a literal, at any depth) that declares methods of its own,
// the sorted names of those methods. An implementation must have them all;
// the methods of embedded interfaces are left out, which can only keep more
// packages.
func interfaceRequirements(f *ast.File) [][]string {
	var reqs [][]string
	ast.Inspect(f, func(n ast.Node) bool {
		it, ok := n.(*ast.InterfaceType)
		if !ok || it.Methods == nil {
			return true
		}
		var req []string
		for _, m := range it.Methods.List {
			if ft, ok := m.Type.(*ast.FuncType); ok {
				for _, name := range m.Names {
					req = append(req, methodKey(name.Name, ft))
				}
			}
		}
		if len(req) > 0 {
			slices.Sort(req)
			reqs = append(reqs, slices.Compact(req))
		}
		return true
	})
	return reqs
}

// collectMethodSets records in sets the methods of the package-level named
// types of f, a file of the package at path.
func collectMethodSets(path string, f *ast.File, names map[string]string, sets map[string]map[string]*methodSet) {
	imports := fileImports(f, names)
	if sets[path] == nil {
		sets[path] = make(map[string]*methodSet)
	}
	set := func(name string) *methodSet {
		if sets[path][name] == nil {
			sets[path][name] = new(methodSet)
		}
		return sets[path][name]
	}
	for _, decl := range f.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			if decl.Recv != nil && len(decl.Recv.List) == 1 {
				if recv, ok := baseTypeName(decl.Recv.List[0].Type); ok {
					s := set(recv)
					s.declared = append(s.declared, methodKey(decl.Name.Name, decl.Type))
				}
			}
		case *ast.GenDecl:
			if decl.Tok != token.TYPE {
				continue
			}
			for _, spec := range decl.Specs {
				ts := spec.(*ast.TypeSpec)
				s := set(ts.Name.Name)
				switch t := ts.Type.(type) {
				case *ast.StructType:
					for _, field := range t.Fields.List {
						if len(field.Names) == 0 {
							s.embed(path, field.Type, imports)
						}
					}
				case *ast.InterfaceType:
					for _, m := range t.Methods.List {
						if ft, ok := m.Type.(*ast.FuncType); ok {
							for _, name := range m.Names {
								s.declared = append(s.declared, methodKey(name.Name, ft))
							}
						} else {
							s.embed(path, m.Type, imports)
						}
					}
				case *ast.Ident, *ast.SelectorExpr, *ast.StarExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.ParenExpr:
					// type T U: T has U's promoted methods (and, if an alias,
					// all of them); counting all of U's can only keep more.
					s.embed(path, t, imports)
				}
			}
		}
	}
}

// embed records the type expr, embedded in a type of the package at path,
// as a source of methods.
func (s *methodSet) embed(path string, expr ast.Expr, imports map[string]string) {
	for {
		switch e := expr.(type) {
		case *ast.StarExpr:
			expr = e.X
			continue
		case *ast.ParenExpr:
			expr = e.X
			continue
		case *ast.IndexExpr:
			expr = e.X
			continue
		case *ast.IndexListExpr:
			expr = e.X
			continue
		case *ast.Ident:
			s.embedded = append(s.embedded, typeName{path, e.Name})
			return
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok {
				if imp, ok := imports[x.Name]; ok {
					s.embedded = append(s.embedded, typeName{imp, e.Sel.Name})
					return
				}
			}
		}
		s.open = true
		return
	}
}

// fileImports maps the names f gives the module's packages it imports to
// their paths; other imports are outside the module and are left out.
func fileImports(f *ast.File, names map[string]string) map[string]string {
	imports := make(map[string]string)
	for _, spec := range f.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		name, ok := names[path]
		if !ok {
			continue
		}
		if spec.Name != nil {
			name = spec.Name.Name
		}
		imports[name] = path
	}
	return imports
}

// methodKey identifies a method by its name and its numbers of parameters
// and results ("Get/2/2"): what the syntax says of a signature for certain
// (the types' spelling can differ, through aliases, for one type).
func methodKey(name string, ft *ast.FuncType) string {
	return name + "/" + strconv.Itoa(fieldCount(ft.Params)) + "/" + strconv.Itoa(fieldCount(ft.Results))
}

// fieldCount returns the number of parameters or results a list declares.
func fieldCount(fl *ast.FieldList) int {
	if fl == nil {
		return 0
	}
	n := 0
	for _, f := range fl.List {
		n += max(1, len(f.Names))
	}
	return n
}

// baseTypeName returns the name of the type a method receiver expression
// names: T in T, *T, T[K], *T[K].
func baseTypeName(expr ast.Expr) (string, bool) {
	for {
		switch e := expr.(type) {
		case *ast.StarExpr:
			expr = e.X
		case *ast.ParenExpr:
			expr = e.X
		case *ast.IndexExpr:
			expr = e.X
		case *ast.IndexListExpr:
			expr = e.X
		case *ast.Ident:
			return e.Name, true
		default:
			return "", false
		}
	}
}

// mayImplement reports whether a named type of the package at path may
// implement one of ifaces: its method set, as far as the syntax shows it,
// holds every method an interface requires, or holds one of them and may
// hold more than the syntax shows. (An implementation counts for dispatch
// only through methods with lease facts, and those are declared in the
// module, so a type must show at least one method itself.)
func mayImplement(path string, sets map[string]map[string]*methodSet, ifaces [][]string) bool {
	for name := range sets[path] {
		methods, open := methodNames(typeName{path, name}, sets, make(map[typeName]bool))
		if len(methods) == 0 {
			continue
		}
		for _, req := range ifaces {
			n := 0
			for _, m := range req {
				if methods[m] {
					n++
				}
			}
			if n == len(req) || open && n > 0 {
				return true
			}
		}
	}
	return false
}

// methodNames returns the names of the methods of the type t, its own and
// those of the module's types it embeds, and whether it may have others.
func methodNames(t typeName, sets map[string]map[string]*methodSet, visiting map[typeName]bool) (map[string]bool, bool) {
	s, ok := sets[t.path][t.name]
	switch {
	case !ok && types.Universe.Lookup(t.name) != nil:
		if t.name == "error" {
			return map[string]bool{"Error/0/1": true}, false
		}
		return nil, false // int, any: no methods
	case !ok:
		return nil, true // in a package that did not parse
	case visiting[t]:
		return nil, false
	}
	visiting[t] = true
	names := make(map[string]bool)
	for _, m := range s.declared {
		names[m] = true
	}
	open := s.open
	for _, e := range s.embedded {
		more, moreOpen := methodNames(e, sets, visiting)
		for m := range more {
			names[m] = true
		}
		open = open || moreOpen
	}
	return names, open
}
