package gen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"sort"
)

// apiNames are the package-level names of the generated package that do
// not come from the schema: fencegen's API and helpers, and sqlc's own.
var apiNames = map[string]bool{
	"Token": true, "ErrStale": true, "ErrNotFound": true, "ErrTokenOutOfRange": true,
	"StaleError": true, "NotFoundError": true, "TokenRangeError": true,
	"Fenced": true, "NewFenced": true, "ErrLeaseHeld": true, "ErrLeaseLost": true,
	"op": true, "opUpdate": true, "opUpsert": true, "opDelete": true,
	"settle": true, "fenceToken": true, "checkTokenRange": true, "mysqlStaleMarker": true,
	"Queries": true, "New": true, "DBTX": true,
	"Written": true, "written": true, "notWritten": true, "staleRows": true,
	"mysqlRejectBase": true, "rejectedRows": true,
}

// modelRenames names a new Go type for sqlc's model of every table or
// view whose model name would clash with the package's own names (a table
// tokens would give a struct Token beside the Token type): the model gets
// a "Row" suffix. The fenced queries never return whole rows, so nothing
// else refers to those models.
func modelRenames(s *Schema) map[string]string {
	taken := map[string]bool{}
	for _, t := range s.Tables {
		taken[goTypeName(t)] = true
	}
	renames := map[string]string{}
	for _, t := range s.Tables {
		model := goTypeName(t)
		if !apiNames[model] || renames[model] != "" {
			continue
		}
		name := model + "Row"
		for taken[name] || apiNames[name] {
			name += "_"
		}
		taken[name] = true
		renames[model] = name
	}
	return renames
}

// renameModels renames struct types of sqlc's models.go as renames says.
func renameModels(src []byte, renames map[string]string) ([]byte, error) {
	if len(renames) == 0 {
		return src, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "models.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("reading sqlc's models.go: %w", err)
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			if _, isStruct := ts.Type.(*ast.StructType); isStruct && renames[ts.Name.Name] != "" {
				ts.Name.Name = renames[ts.Name.Name]
			}
		}
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return nil, fmt.Errorf("renaming sqlc's models: %w", err)
	}
	return out.Bytes(), nil
}

// checkReservedColumns refuses a column of a fenced table that shares the
// name of the token parameter of its queries.
func checkReservedColumns(tables []*fencedTable) error {
	for _, t := range tables {
		for _, c := range t.Columns {
			if structName(c.Name) == structName(tokenParam) {
				return errorf(c.Pos, "column %q of %s has the name fencegen gives the token parameter of its fenced queries; rename the column", c.Name, t.QualifiedName())
			}
		}
	}
	return nil
}

// checkDeclarations parses the generated Go files together and refuses a
// package that declares a name twice (a package-level name, a method of
// one type, or a field of one struct): whatever the schema did to cause it,
// fencegen never hands back code that does not compile. parsed holds
// files already parsed (by parseDecls), by name.
func checkDeclarations(files map[string][]byte, parsed map[string]*ast.File) error {
	top := map[string]string{}     // name -> file
	methods := map[string]string{} // recv.name -> file
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	dup := func(what, file, other string) error {
		return fmt.Errorf("the schema gives the generated package two declarations of %s (in %s and %s), which would not compile; rename the table, column or type it comes from", what, other, file)
	}
	for _, file := range names {
		if len(file) < 3 || file[len(file)-3:] != ".go" {
			continue
		}
		f, ok := parsed[file]
		var err error
		if !ok {
			f, err = parseDecls(file, files[file])
		}
		if err != nil {
			return fmt.Errorf("generated %s does not parse: %v; please report this as a fencegen bug", file, err)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				key := d.Name.Name
				seen := top
				if d.Recv != nil && len(d.Recv.List) == 1 {
					key = recvName(d.Recv.List[0].Type) + "." + key
					seen = methods
				}
				if key == "init" || key == "_" {
					continue
				}
				if other, ok := seen[key]; ok {
					return dup(key, file, other)
				}
				seen[key] = file
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					for _, id := range specNames(spec) {
						if id == "_" {
							continue
						}
						if other, ok := top[id]; ok {
							return dup(id, file, other)
						}
						top[id] = file
					}
					if err := checkFields(spec, file); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return recvName(t.X)
	}
	return ""
}

func specNames(spec ast.Spec) []string {
	switch s := spec.(type) {
	case *ast.TypeSpec:
		return []string{s.Name.Name}
	case *ast.ValueSpec:
		var out []string
		for _, n := range s.Names {
			out = append(out, n.Name)
		}
		return out
	}
	return nil
}

// checkFields refuses a struct type with two fields of one name.
func checkFields(spec ast.Spec, file string) error {
	ts, ok := spec.(*ast.TypeSpec)
	if !ok {
		return nil
	}
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		return nil
	}
	seen := map[string]bool{}
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if seen[n.Name] {
				return fmt.Errorf("the schema gives %s in the generated %s two fields named %s, which would not compile; rename one of the columns they come from", ts.Name.Name, file, n.Name)
			}
			seen[n.Name] = true
		}
	}
	return nil
}
