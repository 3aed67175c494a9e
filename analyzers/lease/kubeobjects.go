package lease

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// Kubernetes API objects are a store: a controller elected leader writes
// Deployments, Secrets and its own custom resources. An Update sends the
// object with the resourceVersion it was read at, and the API server
// refuses it (409 Conflict) if the object changed since: a compare-and-set
// that a stale leader fails. An object built afresh (a literal, or a
// constructor of the application's such as statefulsets.NewPool(...)) has
// no resourceVersion, and the server applies the update whatever is
// stored: a leader paused past its lease overwrites its successor's
// object with the one it built from what it saw before.
//
// Only Updates are read. A Create of a fixed name fails on an existing
// object; a Patch and a Delete send no version unless told to, but
// controllers patch the fields they own and delete what they own, and
// whether that can undo a successor's work depends on what the fields are.

// KubeNewFact: the function returns a Kubernetes object (a pointer to a
// struct with metav1.ObjectMeta) that it builds itself, with no
// resourceVersion.
type KubeNewFact struct{}

func (*KubeNewFact) AFact()         {}
func (*KubeNewFact) String() string { return "builds a Kubernetes object without a resourceVersion" }

const pkgMetaV1 = "k8s.io/apimachinery/pkg/apis/meta/v1"

// kubeTypedUpdate returns the catalog row for fn when it is the Update or
// UpdateStatus of a typed Kubernetes client: client-go's clientset, its
// dynamic client, or a clientset client-gen generated in the application,
// recognised by the metav1.UpdateOptions they take after the object.
func (b *builder) kubeTypedUpdate(fn *types.Func) *API {
	if fn.Name() != "Update" && fn.Name() != "UpdateStatus" {
		return nil
	}
	params := fn.Signature().Params()
	if params.Len() < 3 || !isNamed(params.At(2).Type(), pkgMetaV1, "UpdateOptions") {
		return nil
	}
	return b.ix.any[symbolKey{pkgKubeCoreV1, "", fn.Name()}]
}

// callsKubeUpdate reports whether the package's syntax calls a Kubernetes
// client's Update: a package that imports a clientset only to build
// informers, or pass the client on, writes nothing.
func (b *builder) callsKubeUpdate() bool {
	found := false
	for _, file := range b.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && b.kubeUpdate(sel) {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// kubeUpdate reports whether sel names a typed client's Update or
// UpdateStatus, or controller-runtime's Update.
func (b *builder) kubeUpdate(sel *ast.SelectorExpr) bool {
	fn, ok := b.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	return b.kubeTypedUpdate(fn) != nil || b.ix.canonical(fn.Pkg().Path()) == pkgCtrlClient && fn.Name() == "Update"
}

// kubeUpdatedObject returns the object an Update sends: its first
// argument that is a Kubernetes object (client-go since 0.18 takes a
// context before it, older client-go the object alone: Update(cm)), or
// nil when none is.
func kubeUpdatedObject(c *ssa.CallCommon) ssa.Value {
	for _, a := range callArgs(c) {
		if t := unwrap(a).Type(); kubeObject(t) || unstructuredObject(t) {
			return a
		}
	}
	return nil
}

// unstructuredObject reports whether t is a pointer to apimachinery's
// Unstructured, the dynamic client's object.
func unstructuredObject(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && named.Obj().Name() == "Unstructured" && named.Obj().Pkg() != nil &&
		strings.HasSuffix(named.Obj().Pkg().Path(), "apimachinery/pkg/apis/meta/v1/unstructured")
}

// kubeObject reports whether t is a pointer to a Kubernetes object: a
// struct with an ObjectMeta field of metav1's.
func kubeObject(t types.Type) bool {
	ptr, ok := types.Unalias(t).Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if f := st.Field(i); f.Name() == "ObjectMeta" && isNamed(f.Type(), pkgMetaV1, "ObjectMeta") {
			return true
		}
	}
	return false
}

// kubeFresh reports whether obj, the object an Update sends (write), was
// built in this function or by a constructor with a KubeNewFact, and
// nothing here may have given it a resourceVersion.
func (b *builder) kubeFresh(obj ssa.Value, write *ssa.CallCommon) bool {
	return b.freshObject(unwrap(obj), write, 0)
}

func (b *builder) freshObject(v ssa.Value, write *ssa.CallCommon, depth int) bool {
	if depth > 4 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Alloc:
		return x.Heap && kubeObject(x.Type()) && !mayGetVersion(x, write, 0)
	case *ssa.Call:
		return b.constructed(x, x, write)
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 {
			return b.constructed(call, x, write)
		}
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !b.freshObject(unwrap(e), write, depth+1) {
				return false
			}
		}
		return len(x.Edges) > 0
	}
	return false
}

// constructed reports whether call is of a constructor with a
// KubeNewFact, and nothing gives its result obj a resourceVersion.
func (b *builder) constructed(call *ssa.Call, obj ssa.Value, write *ssa.CallCommon) bool {
	fn := calleeFunc(call.Common())
	var f KubeNewFact
	return fn != nil && b.pass.ImportObjectFact(fn.Origin(), &f) && !mayGetVersion(obj, write, 0)
}

// mayGetVersion reports whether the function may give the object v
// points to a resourceVersion: it copies a whole object there, sets
// ObjectMeta.ResourceVersion, sets the whole ObjectMeta from anything but
// a literal, keeps the pointer somewhere, or hands it to a call other than
// write and kubeSafeCalls'.
func mayGetVersion(v ssa.Value, write *ssa.CallCommon, depth int) bool {
	if depth > 6 {
		return true
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch x := r.(type) {
		case *ssa.FieldAddr:
			switch fieldName(x.X.Type(), x.Field) {
			case "ResourceVersion":
				return true
			case "ObjectMeta":
				if metaReplaced(x) || mayGetVersion(x, write, depth+1) {
					return true
				}
			}
		case *ssa.Store:
			if x.Val == v {
				return true // kept where anything may set it
			}
			if _, zero := x.Val.(*ssa.Const); x.Addr == v && !zero && kubeObject(v.Type()) {
				return true // a copy of another object: pvc := list.Items[i]
			}
		case ssa.CallInstruction:
			if x.Common() != write && !kubeSafeCall(x.Common()) {
				return true
			}
		case *ssa.MakeInterface, *ssa.ChangeType, *ssa.Phi:
			if mayGetVersion(x.(ssa.Value), write, depth+1) {
				return true
			}
		}
	}
	return false
}

// metaReplaced reports whether a store through meta, the address of an
// object's ObjectMeta, writes a whole ObjectMeta that is not a literal
// without a resourceVersion (another object's metadata carries its
// version).
func metaReplaced(meta *ssa.FieldAddr) bool {
	for _, r := range *meta.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Addr != meta {
			continue
		}
		if !literalMeta(st.Val, 0) {
			return true
		}
	}
	return false
}

// literalMeta reports whether v is an ObjectMeta the function built as a
// literal (loaded from a local it filled field by field), with no
// resourceVersion.
func literalMeta(v ssa.Value, depth int) bool {
	if _, ok := v.(*ssa.Const); ok {
		return true // the zero ObjectMeta
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || depth > 4 {
		return false
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, r := range *alloc.Referrers() {
		switch x := r.(type) {
		case *ssa.FieldAddr:
			if fieldName(alloc.Type(), x.Field) == "ResourceVersion" {
				return false
			}
		case *ssa.Store:
			if x.Addr == alloc && !literalMeta(x.Val, depth+1) {
				return false
			}
		case ssa.CallInstruction:
			return false // &meta handed over
		}
	}
	return true
}

// kubeSafeCalls are the calls that take an object and give it no
// resourceVersion: owner references, finalizers, labels, and logging.
var kubeSafeCalls = map[string]bool{
	"SetControllerReference": true, "SetOwnerReference": true, "SetOwnerReferences": true,
	"AddFinalizer": true, "RemoveFinalizer": true, "SetFinalizers": true,
	"SetLabels": true, "SetAnnotations": true, "SetName": true, "SetNamespace": true, "SetGenerateName": true,
	"Info": true, "Infof": true, "Error": true, "Errorf": true, "Warning": true, "Warningf": true,
	"V": true, "Sprintf": true, "Printf": true, "Println": true, "Debugf": true,
}

func kubeSafeCall(c *ssa.CallCommon) bool {
	fn := calleeFunc(c)
	return fn != nil && kubeSafeCalls[fn.Name()]
}

// exportKubeNews exports a KubeNewFact for each declared function of the
// package that returns a Kubernetes object it builds as a literal (or has
// a constructor with the fact build) and gives no resourceVersion. It is
// read from syntax and types before the relevance test: the package that
// builds an operator's StatefulSets imports nothing catalogued.
func (b *builder) exportKubeNews() {
	var cands []*ast.FuncDecl
	for _, file := range b.pass.Files {
		for _, d := range file.Decls {
			if decl, ok := d.(*ast.FuncDecl); ok && decl.Body != nil && b.returnsKubeObject(decl) {
				cands = append(cands, decl)
			}
		}
	}
	fresh := make(map[*types.Func]bool)
	for changed := true; changed; { // constructors calling constructors
		changed = false
		for _, decl := range cands {
			fn := b.pass.TypesInfo.Defs[decl.Name].(*types.Func)
			if !fresh[fn] && b.buildsFreshObject(decl, fresh) {
				fresh[fn] = true
				changed = true
			}
		}
	}
	for fn := range fresh {
		b.pass.ExportObjectFact(fn, &KubeNewFact{})
	}
}

// returnsKubeObject reports whether decl's first result is a pointer to a
// Kubernetes object.
func (b *builder) returnsKubeObject(decl *ast.FuncDecl) bool {
	fn, ok := b.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok {
		return false
	}
	res := fn.Signature().Results()
	return res.Len() > 0 && kubeObject(res.At(0).Type())
}

// buildsFreshObject reports whether every return of decl gives, first, a
// literal &T{...} (directly or through a local variable only ever set so)
// or a constructor's result in fresh, and the body names no
// resourceVersion, sets no ObjectMeta but a literal, and hands the
// returned variable to no call but kubeSafeCalls'.
func (b *builder) buildsFreshObject(decl *ast.FuncDecl, fresh map[*types.Func]bool) bool {
	info := b.pass.TypesInfo
	ok := true
	assigned := make(map[*types.Var][]ast.Expr)
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			switch x.Name {
			case "ResourceVersion", "SetResourceVersion":
				ok = false
			}
		case *ast.AssignStmt:
			for i, lhs := range x.Lhs {
				if sel, isSel := lhs.(*ast.SelectorExpr); isSel && sel.Sel.Name == "ObjectMeta" {
					ok = false
				}
				if id, isID := lhs.(*ast.Ident); isID && len(x.Lhs) == len(x.Rhs) {
					if v, isVar := info.ObjectOf(id).(*types.Var); isVar {
						assigned[v] = append(assigned[v], x.Rhs[i])
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range x.Names {
				if v, isVar := info.ObjectOf(id).(*types.Var); isVar && i < len(x.Values) {
					assigned[v] = append(assigned[v], x.Values[i])
				}
			}
		}
		return ok
	})
	if !ok {
		return false
	}
	returned := make(map[*types.Var]bool)
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(x.Results) == 0 {
				ok = false // a named result: not read
				return false
			}
			e := ast.Unparen(x.Results[0])
			if id, isID := e.(*ast.Ident); isID {
				if id.Name == "nil" {
					return true
				}
				v, isVar := info.Uses[id].(*types.Var)
				if !isVar || len(assigned[v]) == 0 {
					ok = false
					return false
				}
				for _, rhs := range assigned[v] {
					if !b.freshExpr(rhs, fresh, assigned) {
						ok = false
					}
				}
				returned[v] = true
				return true
			}
			if !b.freshExpr(e, fresh, assigned) {
				ok = false
			}
		}
		return ok
	})
	return ok && !b.handsOver(decl.Body, returned)
}

// freshExpr reports whether e is &T{...}, its ObjectMeta a literal, or a
// call of a constructor in fresh or with a KubeNewFact.
func (b *builder) freshExpr(e ast.Expr, fresh map[*types.Func]bool, assigned map[*types.Var][]ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		lit, ok := ast.Unparen(x.X).(*ast.CompositeLit)
		if !ok {
			return false
		}
		for _, elt := range lit.Elts {
			kv, isKV := elt.(*ast.KeyValueExpr)
			if key, isID := kv.Key.(*ast.Ident); isKV && isID && key.Name == "ObjectMeta" && !b.literalMetaExpr(kv.Value, assigned) {
				return false
			}
		}
		return true
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(b.pass.TypesInfo, x).(*types.Func)
		if fn == nil {
			return false
		}
		var f KubeNewFact
		return fresh[fn] || fn.Pkg() != b.pass.Pkg && b.pass.ImportObjectFact(fn, &f)
	}
	return false
}

// literalMetaExpr reports whether e, an ObjectMeta set in a literal, is a
// literal itself or a local variable only ever set to one.
func (b *builder) literalMetaExpr(e ast.Expr, assigned map[*types.Var][]ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.Ident:
		v, ok := b.pass.TypesInfo.Uses[x].(*types.Var)
		if !ok || len(assigned[v]) == 0 {
			return false
		}
		for _, rhs := range assigned[v] {
			if _, lit := ast.Unparen(rhs).(*ast.CompositeLit); !lit {
				return false
			}
		}
		return true
	}
	return false
}

// handsOver reports whether body passes one of vars, its address or its
// metadata's (&ss.ObjectMeta to a DeepCopyInto), to a call other than
// kubeSafeCalls'.
func (b *builder) handsOver(body *ast.BlockStmt, vars map[*types.Var]bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if fn, _ := typeutil.Callee(b.pass.TypesInfo, call).(*types.Func); fn != nil && kubeSafeCalls[fn.Name()] {
			return true
		}
		for _, a := range call.Args {
			if id := rootIdent(a); id != nil {
				if v, isVar := b.pass.TypesInfo.Uses[id].(*types.Var); isVar && vars[v] {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// rootIdent returns the variable an argument hands over the object or
// metadata of: x, &x, *x, x.ObjectMeta, &x.ObjectMeta; nil for anything
// else (x.Spec.Volumes holds no resourceVersion).
func rootIdent(e ast.Expr) *ast.Ident {
	meta := true // no field selected yet: the whole object
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			if meta {
				return x
			}
			return nil
		case *ast.UnaryExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			meta = x.Sel.Name == "ObjectMeta"
			e = x.X
		default:
			return nil
		}
	}
}

// An Update whose object gets its resourceVersion copied from another
// object read just before is a blind swap, the idiom of a create-or-update
// helper:
//
//	stored, err := c.AppsV1().StatefulSets(ns).Get(ctx, desired.Name, metav1.GetOptions{})
//	...
//	desired.ResourceVersion = stored.ResourceVersion
//	_, err = c.AppsV1().StatefulSets(ns).Update(ctx, desired, metav1.UpdateOptions{})
//
// The version is the one stored now, so the API server's compare always
// passes, and desired, built from what the holder saw before, replaces
// whatever the next holder wrote meanwhile. A version the caller read
// with the object it changed (an object passed in, or kept from the read
// its change is computed from) still fences; so does an object changed
// from the fresh read itself (a DeepCopy of it), the read-modify-write
// retry client-go documents.

// kubeVersionCopied reports whether the function that sends obj in an
// Update copies onto it the resourceVersion of another object it reads
// itself.
func kubeVersionCopied(obj ssa.Value) bool {
	fn := obj.Parent()
	if fn == nil {
		return false
	}
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			target, src := versionCopy(instr)
			if target != nil && src != nil && sameKey(target, obj) && readHere(src) && !derivedFrom(obj, src) {
				return true
			}
		}
	}
	return false
}

// versionCopy returns the object instr sets the resourceVersion of, and
// the object whose resourceVersion it sets: obj.ResourceVersion =
// src.ResourceVersion, or obj.SetResourceVersion(src.GetResourceVersion()).
func versionCopy(instr ssa.Instruction) (target, src ssa.Value) {
	switch x := instr.(type) {
	case *ssa.Store:
		if target = versionOwner(x.Addr); target != nil {
			return target, versionSource(x.Val)
		}
	case ssa.CallInstruction:
		c := x.Common()
		if f := calleeFunc(c); f != nil && f.Name() == "SetResourceVersion" && len(callArgs(c)) == 1 {
			return metaOwner(callRecv(c)), versionSource(callArgs(c)[0])
		}
	}
	return nil, nil
}

// versionOwner returns the object whose resourceVersion addr addresses
// (&obj.ObjectMeta.ResourceVersion), or nil.
func versionOwner(addr ssa.Value) ssa.Value {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok || fieldName(fa.X.Type(), fa.Field) != "ResourceVersion" {
		return nil
	}
	return metaOwner(fa.X)
}

// metaOwner returns the object v is the ObjectMeta address of, or v
// itself (an object whose own method is called, an unstructured one).
func metaOwner(v ssa.Value) ssa.Value {
	v = unwrap(v)
	if fa, ok := v.(*ssa.FieldAddr); ok && fieldName(fa.X.Type(), fa.Field) == "ObjectMeta" {
		return fa.X
	}
	return v
}

// versionSource returns the object whose resourceVersion v is:
// src.ResourceVersion loaded, or src.GetResourceVersion(); nil otherwise.
func versionSource(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return versionOwner(x.X)
		}
	case *ssa.Call:
		if f := calleeFunc(x.Common()); f != nil && f.Name() == "GetResourceVersion" {
			return metaOwner(callRecv(x.Common()))
		}
	}
	return nil
}

// readHere reports whether the object src was returned by a call the
// function makes (a Get, a lister's Get).
func readHere(src ssa.Value) bool {
	switch x := unwrap(src).(type) {
	case *ssa.Call:
		return true
	case *ssa.Extract:
		_, ok := x.Tuple.(*ssa.Call)
		return ok
	}
	return false
}

// derivedFrom reports whether obj is src or a deep copy of it.
func derivedFrom(obj, src ssa.Value) bool {
	if sameKey(obj, src) {
		return true
	}
	call, ok := unwrap(obj).(*ssa.Call)
	if !ok {
		return false
	}
	f := calleeFunc(call.Common())
	return f != nil && strings.HasPrefix(f.Name(), "DeepCopy") && sameKey(callRecv(call.Common()), src)
}

// kubeCopiedNote says, in diagnostics, why an Update whose object looks
// read is no fence.
const kubeCopiedNote = "its resourceVersion copied from an object read just before"

// kubeParamObject returns obj, the object a fenced Update sends, when it
// is a parameter of fn, whose caller gave it its resourceVersion: a helper
// (func (s *Service) UpdateStatefulSet(ns string, ss *appsv1.StatefulSet)
// error) fences only as well as its callers' objects do.
func kubeParamObject(fn *ssa.Function, obj ssa.Value) ssa.Value {
	if obj == nil || tokenParam(fn, obj) < 0 {
		return nil
	}
	if _, ok := unwrap(obj).(*ssa.Parameter); !ok {
		return nil
	}
	return obj
}

// kubeObjectCall judges w, a call of a helper whose Update sends the
// object it is passed (obj, FencedByParamFact.KubeObject), as the Update
// itself would be judged here: unfenced when obj was built afresh or its
// resourceVersion copied from an object read just before
// (CreateOrUpdateStatefulSet copies the stored version onto the desired
// object and hands it to UpdateStatefulSet), and fenced by this function's
// own caller when obj is a parameter here too.
func (b *builder) kubeObjectCall(w *Write, fn *ssa.Function, c *ssa.CallCommon, obj ssa.Value) {
	switch {
	case obj == nil:
		w.Fenced = true
	case b.kubeFresh(obj, c):
	case kubeVersionCopied(obj):
		w.Note = kubeCopiedNote
	default:
		w.Fenced = true
		w.kubeObject = kubeParamObject(fn, obj)
	}
}
