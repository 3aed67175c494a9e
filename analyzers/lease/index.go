package lease

import (
	"go/types"
	"strings"
)

// index looks catalog rows up by symbol.
type index struct {
	funcs  map[symbolKey]*API // Recv "" (package funcs) and named receivers
	any    map[symbolKey]*API // Recv "*": any receiver in the package
	fields map[symbolKey]*API
	paths  map[string]bool // import paths of lock libraries and stores: importing one makes a package relevant
	// clients holds clientPaths: importing one makes a package relevant
	// when it also calls a method its writes are recognised by.
	clients map[string]bool
	known   map[string]bool   // every catalogued import path
	forks   map[string]string // a fork's path to the catalogued path it shares the API with
	spawn   map[symbolKey]*Spawner
}

type symbolKey struct{ pkg, recv, name string }

func newIndex() *index {
	ix := &index{
		funcs:   make(map[symbolKey]*API),
		any:     make(map[symbolKey]*API),
		fields:  make(map[symbolKey]*API),
		paths:   make(map[string]bool),
		clients: make(map[string]bool),
		known:   make(map[string]bool),
		forks:   make(map[string]string),
		spawn:   make(map[symbolKey]*Spawner),
	}
	for _, sp := range spawners() {
		ix.spawn[symbolKey{sp.Pkg, sp.Recv, sp.Name}] = &sp
	}
	for _, f := range forks() {
		ix.forks[f.Path] = f.Pkg
	}
	for _, p := range clientPaths() {
		ix.clients[p], ix.known[p] = true, true
	}
	apis := catalog()
	for i := range apis {
		api := &apis[i]
		key := symbolKey{api.Pkg, api.Recv, api.Name}
		switch {
		case api.Field:
			ix.fields[key] = api
		case api.Recv == "*":
			ix.any[symbolKey{api.Pkg, "", api.Name}] = api
		default:
			ix.funcs[key] = api
		}
		if api.Role&^(RoleNotToken|RoleFreshID|RoleEntropy) != 0 && api.System != KubeAPI {
			// Packages that only supply values mistaken for tokens,
			// fresh IDs or entropy (time, os, uuid, crypto/rand) do not
			// make an importer relevant, nor do Kubernetes clients
			// alone (clientPaths: only with an Update call).
			ix.paths[api.Pkg] = true
		}
		ix.known[api.Pkg] = true
	}
	return ix
}

// lookupFunc returns the catalog row for fn, a function or method
// (interface methods included), if there is one.
func (ix *index) lookupFunc(fn *types.Func) *API {
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	fn = fn.Origin()
	pkg := ix.canonical(fn.Pkg().Path())
	if !ix.known[pkg] {
		return nil
	}
	recv := receiverName(fn)
	if api := ix.funcs[symbolKey{pkg, recv, fn.Name()}]; api != nil {
		return api
	}
	if recv != "" {
		return ix.any[symbolKey{pkg, "", fn.Name()}]
	}
	return nil
}

// lookupSpawner returns the Spawner fn is, or nil.
func (ix *index) lookupSpawner(fn *types.Func) *Spawner {
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	fn = fn.Origin()
	return ix.spawn[symbolKey{ix.canonical(fn.Pkg().Path()), receiverName(fn), fn.Name()}]
}

// lookupVar returns the catalog row for a package-level variable.
func (ix *index) lookupVar(v *types.Var) *API {
	if v == nil || v.Pkg() == nil || v.IsField() {
		return nil
	}
	pkg := ix.canonical(v.Pkg().Path())
	if !ix.known[pkg] {
		return nil
	}
	if api := ix.funcs[symbolKey{pkg, "", v.Name()}]; api != nil && api.Var {
		return api
	}
	return nil
}

// lookupField returns the catalog row for a struct field of a named type.
func (ix *index) lookupField(owner types.Type, field *types.Var) *API {
	if field == nil || field.Pkg() == nil {
		return nil
	}
	pkg := ix.canonical(field.Pkg().Path())
	if !ix.known[pkg] {
		return nil
	}
	return ix.fields[symbolKey{pkg, typeName(owner), field.Name()}]
}

// knowsPath reports whether path (as imported) is a catalogued package.
func (ix *index) knowsPath(path string) bool { return ix.paths[ix.canonical(path)] }

// knowsClient reports whether path is one of clientPaths.
func (ix *index) knowsClient(path string) bool { return ix.clients[ix.canonical(path)] }

// canonical is CanonicalPath with the index's map of forks.
func (ix *index) canonical(path string) string {
	p := normalizePath(path)
	if f, ok := ix.forks[p]; ok {
		return f
	}
	return p
}

// receiverName is the name of fn's receiver type without '*' ("" for a
// package-level function).
func receiverName(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	return typeName(sig.Recv().Type())
}

// typeName is the name of t, or of what t points to, or "".
func typeName(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj().Name()
	}
	return ""
}

// normalizePath removes major-version elements ("v2", "v9") from an import
// path, so one catalog row matches every major version:
// "github.com/redis/go-redis/v9" and "go.etcd.io/etcd/client/v3/concurrency"
// become "github.com/redis/go-redis" and "go.etcd.io/etcd/client/concurrency".
// A vendored path keeps only what follows "/vendor/".
func normalizePath(path string) string {
	if i := strings.LastIndex(path, "/vendor/"); i >= 0 {
		path = path[i+len("/vendor/"):]
	}
	if !strings.Contains(path, "/v") {
		return path
	}
	elems := strings.Split(path, "/")
	kept := elems[:1]
	for _, e := range elems[1:] {
		if !isMajorVersion(e) {
			kept = append(kept, e)
		}
	}
	return strings.Join(kept, "/")
}

// isMajorVersion reports whether e is a path element like "v2" or "v10".
func isMajorVersion(e string) bool {
	if len(e) < 2 || e[0] != 'v' {
		return false
	}
	for _, r := range e[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return e != "v0" && e != "v1"
}
