package lease

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
)

// Applications keep their models in a package of their own and name each
// model's table there, or keep a statement's text behind a function:
//
//	package table
//	func (*NodeSnapshot) TableName() string { return "node.count_snapshots" }
//
//	package postgres
//	db.Table((*table.NodeSnapshot).TableName(nil)).Create(snapshot)
//	db.Create(&table.Checkpoint{...}) // INSERT INTO the name Checkpoint's TableName returns
//
// The SQL a write sends is folded within one package (sqltext.go), so a
// call to another package's function is a hole, and a model declared
// elsewhere is named by the ORM's default naming: the statement names
// another table than the one its schema keys are declared for
// (schema.go). An exported function without parameters whose every return
// gives one constant text gets a TextFact, and a call to it folds as that
// text, as a TableName method does when it names a model's table.

// TextFact: the function, which takes no parameters, returns this constant
// text.
type TextFact struct {
	Text string
}

func (*TextFact) AFact()           {}
func (f *TextFact) String() string { return fmt.Sprintf("returns %q", f.Text) }

// exportTexts exports a TextFact for each exported function or method of
// the package that takes no parameters and always returns one constant
// string. It reads the syntax alone, so it costs a package nothing more
// than a walk of its function bodies, and runs for every package.
func (b *builder) exportTexts() {
	for _, file := range b.pass.Files {
		for _, d := range file.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok || decl.Body == nil || !decl.Name.IsExported() {
				continue
			}
			fn, ok := b.pass.TypesInfo.Defs[decl.Name].(*types.Func)
			if !ok || !returnsOneString(fn.Signature()) {
				continue
			}
			if text, ok := b.constantReturn(decl.Body); ok {
				b.pass.ExportObjectFact(fn, &TextFact{Text: text})
			}
		}
	}
}

// returnsOneString reports whether sig takes no parameters and returns one
// string.
func returnsOneString(sig *types.Signature) bool {
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	basic, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && basic.Info()&types.IsString != 0
}

// constantReturn returns the constant string every return statement of
// body (those of its function literals aside) gives, when there is one.
func (b *builder) constantReturn(body *ast.BlockStmt) (string, bool) {
	var text string
	returns, same := 0, true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			returns++
			s, ok := b.constantString(n)
			if !ok || returns > 1 && s != text {
				same = false
			}
			text = s
		}
		return same
	})
	return text, same && returns > 0
}

// constantString returns the constant string ret returns.
func (b *builder) constantString(ret *ast.ReturnStmt) (string, bool) {
	if len(ret.Results) != 1 {
		return "", false // a bare return of a named result
	}
	tv, ok := b.pass.TypesInfo.Types[ret.Results[0]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// importedText returns the text a function of another package always
// returns (TextFact).
func (b *builder) importedText(fn *types.Func) (string, bool) {
	if fn.Pkg() == b.pass.Pkg {
		return "", false
	}
	var f TextFact
	if !b.pass.ImportObjectFact(fn.Origin(), &f) {
		return "", false
	}
	return f.Text, true
}
