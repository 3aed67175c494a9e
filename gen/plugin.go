package gen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"strconv"
)

// sqlcQueriesType is what fencegen's copy of sqlc's Queries is called in
// plugin mode, where sqlc's own Queries is in the package already: the
// fenced queries' unexported methods hang on it, over sqlc's DBTX.
const sqlcQueriesType = "fencedQueries"

// shareSQLCPackage adapts sqlc's output for fencegen's own queries to live
// in the package sqlc's Go generator writes: db.go and models.go are left to
// sqlc (they are returned, to check the package's declarations against), and
// the query methods move to fencedQueries. A model whose name fencegen's API
// declares is refused: there both must keep their names.
func shareSQLCPackage(schema *Schema, goFiles map[string][]byte) (map[string][]byte, error) {
	own := map[string][]byte{}
	for _, name := range []string{"db.go", "models.go", "querier.go"} {
		if data, ok := goFiles[name]; ok {
			own[name] = data
			delete(goFiles, name)
		}
	}
	if err := checkSharedModels(schema, own["models.go"]); err != nil {
		return nil, err
	}
	// sqlc's query files name Queries only as their methods' receiver.
	for name, data := range goFiles {
		goFiles[name] = bytes.ReplaceAll(data, []byte("\nfunc (q *Queries) "), []byte("\nfunc (q *"+sqlcQueriesType+") "))
	}
	return own, nil
}

// checkSharedModels refuses a model of sqlc's whose name fencegen's API
// takes (a table tokens gives Token): sqlc's Go generator declares it in
// the same package, and fencegen cannot rename sqlc's output there.
func checkSharedModels(schema *Schema, models []byte) error {
	if models == nil {
		return nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), "models.go", models, parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("reading sqlc's models.go: %w", err)
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			name := spec.(*ast.TypeSpec).Name.Name
			if !apiNames[name] && name != sqlcQueriesType {
				continue
			}
			msg := fmt.Sprintf("sqlc names a model %s, which fencegen declares in the same package; rename the model with sqlc's rename option in gen: go: (fencegen reads it from there)", name)
			for _, t := range schema.Tables {
				if goTypeName(t) == name {
					return errorf(t.Pos, "table %s: %s", t.QualifiedName(), msg)
				}
			}
			return fmt.Errorf("%s", msg)
		}
	}
	return nil
}

// dropSharedRows removes, in plugin mode, the row types of the users'
// fenced queries from fencegen's copy of sqlc's output: readQueryFiles
// gave them the names sqlc's Go generator gives the unfenced query's rows
// (fencedListDocsRow became ListDocsRow), and the unfenced query returns
// the same columns, so sqlc's declaration is the one kept.
func dropSharedRows(files [][]*userQuery, srcs []Source, goFiles map[string][]byte) error {
	for i, src := range srcs {
		name := src.Path + ".go"
		drop := map[string]bool{}
		for _, q := range files[i] {
			if q.Fenced != nil {
				drop[q.Name+"Row"] = true
			}
		}
		data, err := dropTypes(name, goFiles[name], drop)
		if err != nil {
			return err
		}
		goFiles[name] = data
	}
	return nil
}

// dropTypes removes the named type declarations from a Go file, and the
// imports only they used.
func dropTypes(name string, src []byte, drop map[string]bool) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("reading sqlc's %s: %w", name, err)
	}
	var decls []ast.Decl
	dropped := false
	for _, decl := range f.Decls {
		if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.TYPE && len(gd.Specs) == 1 && drop[gd.Specs[0].(*ast.TypeSpec).Name.Name] {
			dropped = true
			continue
		}
		decls = append(decls, decl)
	}
	if !dropped {
		return src, nil
	}
	f.Decls = decls
	removeUnusedImports(f)
	// The dropped declarations' comments would be left floating: keep only
	// the comments inside what remains, and the file's header.
	var comments []*ast.CommentGroup
	for _, cg := range f.Comments {
		if cg.End() < f.Package || insideDecl(f.Decls, cg) {
			comments = append(comments, cg)
		}
	}
	f.Comments = comments
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return nil, fmt.Errorf("rewriting sqlc's %s: %w", name, err)
	}
	return format.Source(out.Bytes())
}

// insideDecl reports whether cg is in one of decls or is the doc comment
// just above one.
func insideDecl(decls []ast.Decl, cg *ast.CommentGroup) bool {
	for _, d := range decls {
		if cg.Pos() >= d.Pos() && cg.End() <= d.End() {
			return true
		}
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Doc == cg {
				return true
			}
		case *ast.GenDecl:
			if d.Doc == cg {
				return true
			}
		}
	}
	return false
}

// removeUnusedImports drops the imports no selector of f refers to.
func removeUnusedImports(f *ast.File) {
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	var specs []*ast.ImportSpec
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		local := importName(path)
		if imp.Name != nil {
			local = imp.Name.Name
		}
		if used[local] || local == "_" {
			specs = append(specs, imp)
		}
	}
	keep := map[*ast.ImportSpec]bool{}
	for _, s := range specs {
		keep[s] = true
	}
	f.Imports = specs
	var decls []ast.Decl
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			decls = append(decls, decl)
			continue
		}
		var kept []ast.Spec
		for _, s := range gd.Specs {
			if keep[s.(*ast.ImportSpec)] {
				kept = append(kept, s)
			}
		}
		if len(kept) > 0 {
			gd.Specs = kept
			decls = append(decls, gd)
		}
	}
	f.Decls = decls
}

// withSQLCFiles is the package's files with sqlc's own (plugin mode), to
// check the declarations of the package as it will compile.
func withSQLCFiles(files, own map[string][]byte) map[string][]byte {
	if len(own) == 0 {
		return files
	}
	all := make(map[string][]byte, len(files)+len(own))
	for name, data := range files {
		all[name] = data
	}
	for name, data := range own {
		all[name] = data
	}
	return all
}
