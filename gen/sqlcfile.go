package gen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"
)

// sqlcFile is what fenced.go needs from sqlc's generated queries file: the
// params structs and the result types of the fenced query methods. Reading
// them back keeps fencegen's wrappers in step with sqlc's type mapping
// (pgtype.Int8 vs sql.NullInt64, enums, overrides) instead of duplicating it.
type sqlcFile struct {
	imports map[string]string  // local package name -> import path
	structs map[string][]field // struct type name -> fields in order
	results map[string]ast.Expr
	// src and decls are the file as parsed, which checkDeclarations
	// reuses while the file is unchanged.
	src   []byte
	decls *ast.File
}

type field struct {
	Name string
	Type ast.Expr
}

func parseSQLCFile(name string, src []byte) (*sqlcFile, error) {
	f, err := parseDecls(name, src)
	if err != nil {
		return nil, fmt.Errorf("reading sqlc's %s: %w", name, err)
	}
	out := &sqlcFile{imports: map[string]string{}, structs: map[string][]field{}, results: map[string]ast.Expr{}, src: src, decls: f}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		local := importName(path)
		if imp.Name != nil {
			local = imp.Name.Name
		}
		out.imports[local] = path
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.GenDecl:
			out.addStructs(d)
		case *ast.FuncDecl:
			if d.Recv != nil && d.Type.Results != nil && len(d.Type.Results.List) > 0 {
				out.results[d.Name.Name] = d.Type.Results.List[0].Type
			}
		}
	}
	return out, nil
}

func (s *sqlcFile) addStructs(d *ast.GenDecl) {
	for _, spec := range d.Specs {
		ts, ok := spec.(*ast.TypeSpec)
		if !ok {
			continue
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			continue
		}
		var fields []field
		for _, f := range st.Fields.List {
			for _, n := range f.Names {
				fields = append(fields, field{Name: n.Name, Type: f.Type})
			}
		}
		s.structs[ts.Name.Name] = fields
	}
}

// importName is the name a package is assumed to have from its import
// path, as goimports assumes it (sqlc imports without names): the last
// element, skipping a major-version suffix, without a "go-" prefix and cut
// at the first character that cannot be in an identifier, so that
// github.com/pgvector/pgvector-go is pgvector.
func importName(path string) string {
	name := path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		name = path[i+1:]
		if len(name) > 1 && name[0] == 'v' && isDigits(name[1:]) {
			return importName(path[:i])
		}
	}
	name = strings.TrimPrefix(name, "go-")
	if i := strings.IndexFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }); i >= 0 {
		name = name[:i]
	}
	return name
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// typeCode converts a type expression from sqlc's file into jennifer code,
// qualifying package selectors so fenced.go gets the same imports.
func (s *sqlcFile) typeCode(e ast.Expr) (jen.Code, error) {
	switch t := e.(type) {
	case *ast.Ident:
		return jen.Id(t.Name), nil
	case *ast.SelectorExpr:
		pkg, ok := t.X.(*ast.Ident)
		if !ok || s.imports[pkg.Name] == "" {
			return nil, fmt.Errorf("unexpected type %s in sqlc's output", types.ExprString(e))
		}
		return jen.Qual(s.imports[pkg.Name], t.Sel.Name), nil
	case *ast.StarExpr:
		inner, err := s.typeCode(t.X)
		return jen.Op("*").Add(inner), err
	case *ast.ArrayType:
		if t.Len != nil {
			return nil, fmt.Errorf("unexpected type %s in sqlc's output", types.ExprString(e))
		}
		inner, err := s.typeCode(t.Elt)
		return jen.Index().Add(inner), err
	case *ast.MapType:
		k, err := s.typeCode(t.Key)
		if err != nil {
			return nil, err
		}
		v, err := s.typeCode(t.Value)
		return jen.Map(k).Add(v), err
	case *ast.InterfaceType:
		return jen.Interface(), nil
	case *ast.IndexExpr: // pgtype.Range[pgtype.Int4]
		return s.generic(t.X, t.Index)
	case *ast.IndexListExpr:
		return s.generic(t.X, t.Indices...)
	}
	return nil, fmt.Errorf("unexpected type %s in sqlc's output", types.ExprString(e))
}

// qualifiedType names a type as "path.Name" for the conversion tables below.
func (s *sqlcFile) qualifiedType(e ast.Expr) string {
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if pkg, ok := sel.X.(*ast.Ident); ok {
			return s.imports[pkg.Name] + "." + sel.Sel.Name
		}
	}
	return types.ExprString(e)
}

// intField describes how a token travels through one of sqlc's integer
// types: a plain integer (Field == "") or a nullable struct with a value
// field and Valid.
type intField struct {
	Qual, Name string // the nullable struct's package path and name
	Field      string // its integer field; "" for a plain integer type
	Plain      string // the plain Go integer type
}

// tokenTypes maps sqlc's Go types for integer columns to their shape.
func tokenType(qualified string) (intField, bool) {
	switch qualified {
	case "int64", "int32", "int16", "int8", "int", "uint64", "uint32", "uint16", "uint8":
		return intField{Plain: qualified}, true
	case "interface{}":
		return intField{Plain: "int64"}, true
	case "database/sql.NullInt64":
		return intField{"database/sql", "NullInt64", "Int64", "int64"}, true
	case "database/sql.NullInt32":
		return intField{"database/sql", "NullInt32", "Int32", "int32"}, true
	case "database/sql.NullInt16":
		return intField{"database/sql", "NullInt16", "Int16", "int16"}, true
	case "github.com/jackc/pgx/v5/pgtype.Int8":
		return intField{"github.com/jackc/pgx/v5/pgtype", "Int8", "Int64", "int64"}, true
	case "github.com/jackc/pgx/v5/pgtype.Int4":
		return intField{"github.com/jackc/pgx/v5/pgtype", "Int4", "Int32", "int32"}, true
	case "github.com/jackc/pgx/v5/pgtype.Int2":
		return intField{"github.com/jackc/pgx/v5/pgtype", "Int2", "Int16", "int16"}, true
	}
	return intField{}, false
}

// toDriver renders the conversion of the Token expression tok to this type.
func (f intField) toDriver(tok jen.Code) jen.Code {
	var value jen.Code = jen.Id(f.Plain).Call(tok)
	if f.Plain == "int64" {
		value = tok
	}
	if f.Field == "" {
		return value
	}
	return jen.Qual(f.Qual, f.Name).Values(jen.Dict{jen.Id(f.Field): value, jen.Id("Valid"): jen.True()})
}

// generic converts an instantiated generic type such as
// pgtype.Multirange[pgtype.Range[pgtype.Int4]].
func (s *sqlcFile) generic(base ast.Expr, args ...ast.Expr) (jen.Code, error) {
	code, err := s.typeCode(base)
	if err != nil {
		return nil, err
	}
	params := make([]jen.Code, len(args))
	for i, a := range args {
		if params[i], err = s.typeCode(a); err != nil {
			return nil, err
		}
	}
	return jen.Add(code).Types(params...), nil
}

// parseDecls parses the declarations of a gofmt'd Go file, without the
// bodies of its methods: fencegen reads types, signatures and names from
// sqlc's output and its own, which are as large as the schema (a megabyte
// for 500 tables), and the bodies are most of the parsing. A file the
// shortcut does not fit is parsed whole.
func parseDecls(name string, src []byte) (*ast.File, error) {
	if f, err := parser.ParseFile(token.NewFileSet(), name, withoutMethodBodies(src), parser.SkipObjectResolution); err == nil {
		return f, nil
	}
	return parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
}

// withoutMethodBodies empties the body of every method of src that gofmt
// printed as "func (" ... "{" at the start of a line and a closing "}"
// line. Method bodies of generated code hold no multi-line raw strings
// (sqlc keeps query text in constants), so the first "}" line closes it.
func withoutMethodBodies(src []byte) []byte {
	out := make([]byte, 0, len(src))
	inBody := false
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line = src[:i+1]
		}
		src = src[len(line):]
		text := bytes.TrimRight(line, "\n")
		switch {
		case inBody:
			if string(text) == "}" {
				out = append(out, line...)
				inBody = false
			}
		case bytes.HasPrefix(text, []byte("func (")) && bytes.HasSuffix(text, []byte("{")):
			out = append(out, line...)
			inBody = true
		default:
			out = append(out, line...)
		}
	}
	return out
}
