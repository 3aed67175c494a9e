package unfencedwrite

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
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
// concurrency.Mutex m into cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut(k, v)).Commit().
// It applies when the call has no options, its response is unused (Commit
// returns a *TxnResponse, not a *PutResponse), and the file imports clientv3.
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
	if mutex == "" || clientv3 == "" {
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
	text := fmt.Sprintf("%s.Txn(%s).If(%s.IsOwner()).Then(%s.%s(%s)).Commit()",
		render(pass.Fset, sel.X), render(pass.Fset, call.Args[0]), mutex, clientv3, op, strings.Join(args, ", "))
	return analysis.SuggestedFix{
		Message:   fmt.Sprintf("commit the %s in a Txn guarded by %s.IsOwner()", sel.Sel.Name, mutex),
		TextEdits: []analysis.TextEdit{{Pos: call.Pos(), End: call.End(), NewText: []byte(text)}},
	}, true
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
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			if s := pass.TypesInfo.Scopes[f]; s != nil {
				return s.Innermost(pos)
			}
		}
	}
	return nil
}

// importName returns the name under which the file containing pos imports
// path, or "".
func importName(pass *analysis.Pass, pos token.Pos, path string) string {
	for _, f := range pass.Files {
		if pos < f.FileStart || pos >= f.FileEnd {
			continue
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
