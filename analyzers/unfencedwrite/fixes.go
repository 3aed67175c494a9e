package unfencedwrite

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/lease"
)

// Suggested fixes, offered only where the change is mechanical and keeps
// the program compiling:
//   - an etcd Put or Delete under a concurrency.Mutex becomes a Txn guarded
//     by the mutex's IsOwner compare;
//   - an S3 PutObject, DeleteObject or CopyObject gets IfMatch from an ETag
//     already in scope.

// calls indexes the package's call expressions by their '(' position, which
// is what SSA reports as a call's position.
type calls map[token.Pos]*ast.CallExpr

func indexCalls(pass *analysis.Pass) calls {
	idx := make(calls)
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				idx[call.Lparen] = call
			}
			return true
		})
	}
	return idx
}

// suggestFixes returns the fixes for w, if any applies.
func suggestFixes(pass *analysis.Pass, idx calls, w *lease.Write) []analysis.SuggestedFix {
	call := idx[w.Pos]
	if call == nil {
		return nil
	}
	switch w.System {
	case lease.Etcd:
		if fix, ok := etcdTxnFix(pass, idx, w, call); ok {
			return []analysis.SuggestedFix{fix}
		}
	case lease.S3:
		if fix, ok := s3IfMatchFix(pass, w, call); ok {
			return []analysis.SuggestedFix{fix}
		}
	}
	return nil
}

// etcdTxnFix rewrites cli.Put(ctx, k, v) (or Delete(ctx, k)) made under a
// concurrency.Mutex m into cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut(k, v)).Commit(),
// and keeps and checks the response's Succeeded: a Txn whose compare fails
// returns no error, so without the check the stale holder would carry on as
// if it had written. It fails with concurrency.ErrSessionExpired (the
// ownership key is gone). It applies when the call has no options and its
// response is unused (Commit returns a *TxnResponse, not a *PutResponse),
// the file imports clientv3 and concurrency, and the call is a statement
// "_, err := call" or "_, err = call", or the init of
// "if _, err := call; err != nil { return ... }" with no else.
func etcdTxnFix(pass *analysis.Pass, idx calls, w *lease.Write, call *ast.CallExpr) (analysis.SuggestedFix, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "Put" && sel.Sel.Name != "Delete") || responseUsed(w.Call) {
		return analysis.SuggestedFix{}, false
	}
	if (sel.Sel.Name == "Put" && len(call.Args) != 3) || (sel.Sel.Name == "Delete" && len(call.Args) != 2) {
		return analysis.SuggestedFix{}, false
	}
	mutex := mutexExpr(pass, idx, w)
	clientv3 := importName(pass, call.Pos(), "go.etcd.io/etcd/client/v3")
	concurrency := importName(pass, call.Pos(), "go.etcd.io/etcd/client/v3/concurrency")
	if mutex == "" || clientv3 == "" || concurrency == "" {
		return analysis.SuggestedFix{}, false
	}
	op := "OpPut"
	if sel.Sel.Name == "Delete" {
		op = "OpDelete"
	}
	args := make([]string, len(call.Args)-1)
	for i, a := range call.Args[1:] {
		args[i] = render(pass.Fset, a)
	}
	txn := fmt.Sprintf("%s.Txn(%s).If(%s.IsOwner()).Then(%s.%s(%s)).Commit()",
		render(pass.Fset, sel.X), render(pass.Fset, call.Args[0]), mutex, clientv3, op, strings.Join(args, ", "))
	lost := concurrency + ".ErrSessionExpired"
	resp := freshName(pass, call.Pos(), "resp")
	edits, ok := checkSucceeded(pass, call, txn, resp, lost, clientv3)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	return analysis.SuggestedFix{
		Message:   fmt.Sprintf("commit the %s in a Txn guarded by %s.IsOwner() and fail with %s when it did not apply", sel.Sel.Name, mutex, lost),
		TextEdits: edits,
	}, true
}

// checkSucceeded returns the edits that replace call by txn in the
// statement holding it, keep the response as resp, and turn a Txn that did
// not apply into the error lost.
func checkSucceeded(pass *analysis.Pass, call *ast.CallExpr, txn, resp, lost, clientv3 string) ([]analysis.TextEdit, bool) {
	path := enclosingPath(pass, call)
	if len(path) < 3 {
		return nil, false
	}
	assign, ok := path[1].(*ast.AssignStmt)
	if !ok || len(assign.Lhs) != 2 || len(assign.Rhs) != 1 || !isBlank(assign.Lhs[0]) {
		return nil, false
	}
	errID, ok := assign.Lhs[1].(*ast.Ident)
	if !ok || errID.Name == "_" {
		return nil, false
	}
	indent := strings.Repeat("\t", pass.Fset.Position(assign.Pos()).Column-1)
	switch parent := path[2].(type) {
	case *ast.BlockStmt: // _, err := call  or  _, err = call
		tf := pass.Fset.File(assign.End())
		line := tf.Line(assign.End())
		if line >= tf.LineCount() {
			return nil, false
		}
		eol := tf.LineStart(line+1) - 1 // after a trailing comment
		check := fmt.Sprintf("\n%sif %s == nil && !%s.Succeeded {\n%s\t%s = %s\n%s}", indent, errID.Name, resp, indent, errID.Name, lost, indent)
		edits := []analysis.TextEdit{
			{Pos: assign.Lhs[0].Pos(), End: assign.Lhs[0].End(), NewText: []byte(resp)},
			{Pos: call.Pos(), End: call.End(), NewText: []byte(txn)},
			{Pos: eol, End: eol, NewText: []byte(check)},
		}
		if assign.Tok != token.DEFINE {
			decl := fmt.Sprintf("var %s *%s.TxnResponse\n%s", resp, clientv3, indent)
			edits = append([]analysis.TextEdit{{Pos: assign.Pos(), End: assign.Pos(), NewText: []byte(decl)}}, edits...)
		}
		return edits, true
	case *ast.IfStmt: // if _, err := call; err != nil { return ... }
		ret := returnOnError(parent, assign, errID)
		if ret == nil {
			return nil, false
		}
		results := make([]string, len(ret.Results))
		word := regexp.MustCompile(`\b` + regexp.QuoteMeta(errID.Name) + `\b`)
		for i, r := range ret.Results {
			results[i] = word.ReplaceAllString(render(pass.Fset, r), lost)
		}
		indent := strings.Repeat("\t", pass.Fset.Position(parent.Pos()).Column-1)
		elseIf := fmt.Sprintf(" else if !%s.Succeeded {\n%s\treturn %s\n%s}", resp, indent, strings.Join(results, ", "), indent)
		return []analysis.TextEdit{
			{Pos: assign.Lhs[0].Pos(), End: assign.Lhs[0].End(), NewText: []byte(resp)},
			{Pos: call.Pos(), End: call.End(), NewText: []byte(txn)},
			{Pos: parent.Body.End(), End: parent.Body.End(), NewText: []byte(elseIf)},
		}, true
	}
	return nil, false
}

// returnOnError returns the return statement of "if INIT; err != nil {
// return ... }" when that is all the if is, or nil.
func returnOnError(stmt *ast.IfStmt, init *ast.AssignStmt, errID *ast.Ident) *ast.ReturnStmt {
	cond, ok := stmt.Cond.(*ast.BinaryExpr)
	if stmt.Init != init || init.Tok != token.DEFINE || stmt.Else != nil || !ok || cond.Op != token.NEQ ||
		!isIdent(cond.X, errID.Name) || !isIdent(cond.Y, "nil") || len(stmt.Body.List) != 1 {
		return nil
	}
	ret, _ := stmt.Body.List[0].(*ast.ReturnStmt)
	if ret == nil || len(ret.Results) == 0 {
		return nil
	}
	return ret
}

func isBlank(e ast.Expr) bool { return isIdent(e, "_") }

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// enclosingPath returns the path from call up to its file.
func enclosingPath(pass *analysis.Pass, call *ast.CallExpr) []ast.Node {
	f := fileOf(pass, call.Pos())
	if f == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(f, call.Pos(), call.End())
	return path
}

// fileOf returns the file of the package that holds pos, or nil.
func fileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// freshName returns base, or base with a number, whichever is not declared
// in scope at pos.
func freshName(pass *analysis.Pass, pos token.Pos, base string) string {
	scope := innermostScope(pass, pos)
	name := base
	for i := 2; scope != nil; i++ {
		if _, obj := scope.LookupParent(name, pos); obj == nil && scope.Lookup(name) == nil {
			break
		}
		name = fmt.Sprintf("%s%d", base, i)
	}
	return name
}

// mutexExpr returns the source of the etcd Mutex whose Lock opened a lease
// held at w ("m", "w.mu"), or "".
func mutexExpr(pass *analysis.Pass, idx calls, w *lease.Write) string {
	for _, l := range w.Held {
		if l.Kind != lease.Acquired || l.System != lease.Etcd || l.Holder == nil || !isEtcdMutex(l.Holder.Type()) {
			continue
		}
		if lock := idx[l.Pos]; lock != nil {
			if sel, ok := lock.Fun.(*ast.SelectorExpr); ok {
				return render(pass.Fset, sel.X)
			}
		}
	}
	return ""
}

// isEtcdMutex reports whether t is *concurrency.Mutex of etcd's client.
func isEtcdMutex(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Name() == "Mutex" && n.Obj().Pkg() != nil &&
		strings.HasPrefix(n.Obj().Pkg().Path(), "go.etcd.io/etcd/client/") &&
		strings.HasSuffix(n.Obj().Pkg().Path(), "/concurrency")
}

// responseUsed reports whether the first result of a (response, error)
// call is used.
func responseUsed(call ssa.CallInstruction) bool {
	v, ok := call.(*ssa.Call)
	if !ok {
		return true
	}
	for _, ref := range *v.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == 0 && len(*ex.Referrers()) > 0 {
			return true
		}
	}
	return false
}

// s3IfMatchFix adds IfMatch to an S3 input literal when an ETag is already
// in scope: a string or *string variable named like "etag", or the ETag
// field of a HeadObject/GetObject/PutObject output in scope.
func s3IfMatchFix(pass *analysis.Pass, w *lease.Write, call *ast.CallExpr) (analysis.SuggestedFix, bool) {
	if len(call.Args) < 2 {
		return analysis.SuggestedFix{}, false
	}
	lit := inputLiteral(call.Args[1])
	if lit == nil || len(lit.Elts) == 0 {
		return analysis.SuggestedFix{}, false
	}
	etag := etagInScope(pass, call.Pos())
	if etag == "" {
		return analysis.SuggestedFix{}, false
	}
	last := lit.Elts[len(lit.Elts)-1]
	return analysis.SuggestedFix{
		Message:   "set IfMatch to " + etag,
		TextEdits: []analysis.TextEdit{{Pos: last.End(), End: last.End(), NewText: []byte(", IfMatch: " + etag)}},
	}, true
}

// inputLiteral returns the composite literal of &s3.XInput{...}, or nil.
func inputLiteral(e ast.Expr) *ast.CompositeLit {
	u, ok := e.(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	lit, _ := u.X.(*ast.CompositeLit)
	return lit
}

// etagInScope returns an expression of type *string holding an ETag that
// is in scope at pos, or "".
func etagInScope(pass *analysis.Pass, pos token.Pos) string {
	scope := innermostScope(pass, pos)
	for s := scope; s != nil && s != types.Universe; s = s.Parent() {
		for _, name := range s.Names() {
			obj, ok := s.Lookup(name).(*types.Var)
			if !ok || obj.Pos() > pos {
				continue
			}
			if expr := etagExpr(pass, obj, pos); expr != "" {
				return expr
			}
		}
	}
	return ""
}

// etagExpr turns a variable into an IfMatch value, or "".
func etagExpr(pass *analysis.Pass, v *types.Var, pos token.Pos) string {
	t := v.Type()
	if strings.Contains(strings.ToLower(v.Name()), "etag") {
		switch {
		case types.Identical(t, types.NewPointer(types.Typ[types.String])):
			return v.Name()
		case types.Identical(t, types.Typ[types.String]):
			if aws := importName(pass, pos, "github.com/aws/aws-sdk-go-v2/aws"); aws != "" {
				return aws + ".String(" + v.Name() + ")"
			}
		}
		return ""
	}
	if p, ok := t.(*types.Pointer); ok {
		if n, ok := p.Elem().(*types.Named); ok && n.Obj().Pkg() != nil &&
			strings.HasSuffix(n.Obj().Pkg().Path(), "/service/s3") &&
			(n.Obj().Name() == "HeadObjectOutput" || n.Obj().Name() == "GetObjectOutput" || n.Obj().Name() == "PutObjectOutput") {
			return v.Name() + ".ETag"
		}
	}
	return ""
}

// innermostScope returns the innermost scope that contains pos.
func innermostScope(pass *analysis.Pass, pos token.Pos) *types.Scope {
	if s := pass.TypesInfo.Scopes[fileOf(pass, pos)]; s != nil {
		return s.Innermost(pos)
	}
	return nil
}

// importName returns the name under which the file containing pos imports
// path, or "".
func importName(pass *analysis.Pass, pos token.Pos, path string) string {
	f := fileOf(pass, pos)
	if f == nil {
		return ""
	}
	for _, imp := range f.Imports {
		if strings.Trim(imp.Path.Value, `"`) != path {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		if pkg := importedPackage(pass, path); pkg != nil {
			return pkg.Name()
		}
	}
	return ""
}

func importedPackage(pass *analysis.Pass, path string) *types.Package {
	for _, p := range pass.Pkg.Imports() {
		if p.Path() == path {
			return p
		}
	}
	return nil
}

// render prints an expression as source.
func render(fset *token.FileSet, e ast.Expr) string {
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, e); err != nil {
		return ""
	}
	return buf.String()
}
