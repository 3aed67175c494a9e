package lease

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// An etcd lease is a lock only when something makes it exclusive: a
// session (concurrency.WithLease) for a mutex or an election, or a key put
// with it inside a transaction (the hand-rolled lock: If the key's
// CreateRevision is 0, Then OpPut it WithLease). A lease that only ever
// rides on keys put unconditionally (KV.Put with WithLease: a service or
// node registration, a record of running work) is a liveness record: when
// it lapses its keys vanish, and no holder was keeping others out. Its
// keep-alive loop guards no lock, so a failure it keeps to itself loses no
// write (Renewal.Liveness).
//
// Leases are told apart by where their IDs come from: the struct field or
// the Grant call that holds them, followed through locals, phis, the
// package's own functions' parameters and results, and stores of one into
// the other (lk.lID = resp.ID). Anything else (an ID from another package,
// an option that leaves for a call not known to be a plain Put) makes the
// lease, or every lease, count as a lock.

// leaseKey names where a lease ID is kept: a *types.Var (a struct field or
// package variable of LeaseID type) or the ssa.Value of a Grant response.
type leaseKey any

// leaseClasses groups the keys that hold the same lease (union-find), and
// records which groups a lock is made from.
type leaseClasses struct {
	b       *builder
	parent  map[leaseKey]leaseKey
	locked  map[leaseKey]bool // by class root
	plain   map[leaseKey]bool // by class root: rides on a plain Put somewhere
	unknown bool              // some lock was made from a lease of unknown origin
	sites   map[*ssa.Function][]callSite
}

// markLiveness sets Renewal.Liveness on the etcd renewals that keep alive
// a lease no lock is made from.
func (b *builder) markLiveness() {
	var classes *leaseClasses
	for _, r := range b.model.Renewals {
		if r.System != Etcd {
			continue
		}
		id := leaseIDArg(b, r.Call.Common())
		if id == nil {
			continue
		}
		if classes == nil {
			classes = b.leaseClasses()
		}
		r.Liveness = classes.liveness(id)
		if p, ok := id.(*ssa.Parameter); ok && p.Parent() == r.Fn {
			r.LeaseFromCaller = true
		}
	}
}

// leaseClasses builds the lease groups of the package and their uses.
func (b *builder) leaseClasses() *leaseClasses {
	c := &leaseClasses{b: b, parent: map[leaseKey]leaseKey{}, locked: map[leaseKey]bool{},
		plain: map[leaseKey]bool{}, sites: b.callSitesByCallee()}
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				if st, ok := instr.(*ssa.Store); ok && b.isLeaseID(st.Val.Type()) {
					if k := c.slot(st.Addr); k != nil {
						keys, _ := c.origins(st.Val, 0)
						for _, o := range keys {
							c.union(k, o)
						}
					}
				}
			}
		}
	}
	for _, call := range b.calls {
		c.use(call)
	}
	return c
}

// use records what the call does with the lease IDs it is handed.
func (c *leaseClasses) use(instr ssa.CallInstruction) {
	b := c.b
	call := instr.Common()
	fn := calleeFunc(call)
	if fn == nil || b.inPackageFunc(call) {
		return // the package's own functions: their bodies are followed
	}
	api := b.ix.lookupFunc(fn)
	for _, arg := range call.Args {
		if !b.isLeaseID(arg.Type()) {
			continue
		}
		switch {
		case api != nil && api.Role.Has(RoleOnLease):
			c.mark(arg, true)
		case b.isEtcdWithLease(fn):
			if res, ok := instr.(*ssa.Call); ok && c.plainPutOption(res, 0) {
				c.mark(arg, false)
			} else {
				c.mark(arg, true)
			}
		case api != nil && api.Role&(RoleRenew|RoleRelease|RoleGrant) != 0:
			// keeping the lease alive or revoking it says nothing of its use
		default:
			c.mark(arg, true) // handed to code that may make a lock of it
		}
	}
}

// mark records the groups of v's lease as made into a lock, or as riding
// on a plain Put; a lock made from a lease of unknown origin may be any
// lease.
func (c *leaseClasses) mark(v ssa.Value, lock bool) {
	keys, ok := c.origins(v, 0)
	if !ok && lock {
		c.unknown = true
	}
	set := c.plain
	if lock {
		set = c.locked
	}
	for _, k := range keys {
		set[c.find(k)] = true
	}
}

// liveness reports whether the lease id is a liveness record: it rides on
// plain Puts and no lock is made from it.
func (c *leaseClasses) liveness(id ssa.Value) bool {
	if c.unknown {
		return false
	}
	keys, ok := c.origins(id, 0)
	if !ok || len(keys) == 0 {
		return false
	}
	plain := false
	for _, k := range keys {
		root := c.find(k)
		if c.locked[root] {
			return false
		}
		plain = plain || c.plain[root]
	}
	return plain
}

// plainPutOption reports whether the option v (a clientv3.WithLease result)
// reaches only plain etcd Puts: handed to KV.Put among its variadic
// options, or to a function of the package that hands its options only to
// such Puts.
func (c *leaseClasses) plainPutOption(v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil || len(*refs) == 0 || depth > 3 {
		return false
	}
	for _, ref := range *refs {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Val != v {
			return false
		}
		ia, ok := st.Addr.(*ssa.IndexAddr)
		if !ok {
			return false
		}
		arr, ok := ia.X.(*ssa.Alloc)
		if !ok || !c.variadicOnlyToPlainPuts(arr, depth) {
			return false
		}
	}
	return true
}

// variadicOnlyToPlainPuts reports whether the varargs array arr is only
// filled and sliced into the options of plain Puts.
func (c *leaseClasses) variadicOnlyToPlainPuts(arr *ssa.Alloc, depth int) bool {
	sliced := false
	for _, ref := range *arr.Referrers() {
		switch r := ref.(type) {
		case *ssa.IndexAddr:
		case *ssa.Slice:
			for _, use := range *r.Referrers() {
				call, ok := use.(ssa.CallInstruction)
				if !ok || !c.plainPutCall(call.Common(), r, depth) {
					return false
				}
			}
			sliced = true
		default:
			return false
		}
	}
	return sliced
}

// plainPutCall reports whether call, handed the options slice opts as its
// variadic argument, is a plain etcd Put or a package function that passes
// its options only to plain Puts.
func (c *leaseClasses) plainPutCall(call *ssa.CallCommon, opts ssa.Value, depth int) bool {
	n := len(call.Args)
	if n == 0 || call.Args[n-1] != opts {
		return false
	}
	b := c.b
	if callee := call.StaticCallee(); callee != nil && b.inPackageFunc(call) {
		if len(callee.Params) == 0 || !callee.Signature.Variadic() {
			return false
		}
		param := callee.Params[len(callee.Params)-1]
		refs := param.Referrers()
		if refs == nil || len(*refs) == 0 {
			return false
		}
		for _, ref := range *refs {
			inner, ok := ref.(ssa.CallInstruction)
			if !ok || !c.plainPutCall(inner.Common(), param, depth+1) {
				return false
			}
		}
		return true
	}
	fn := calleeFunc(call)
	if fn == nil || fn.Name() != "Put" {
		return false
	}
	res, ok := b.resolve(call)
	return ok && res.system == Etcd && res.role.Has(RoleWrite)
}

// origins returns the keys v's lease ID comes from; ok is false when some
// of it comes from where this does not follow.
func (c *leaseClasses) origins(v ssa.Value, depth int) (keys []leaseKey, ok bool) {
	if depth > 6 {
		return nil, false
	}
	switch v := v.(type) {
	case *ssa.Const:
		return nil, true // a sentinel (-1, NoLease), no lease
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if k := c.slot(v.X); k != nil {
				return []leaseKey{k}, true
			}
		}
	case *ssa.Field:
		if st, ok := v.X.Type().Underlying().(*types.Struct); ok {
			if c.b.isGrantResponse(v.X.Type()) {
				return []leaseKey{grantRoot(v.X)}, true
			}
			return []leaseKey{st.Field(v.Field)}, true
		}
	case *ssa.ChangeType:
		return c.origins(v.X, depth+1)
	case *ssa.Convert:
		return c.origins(v.X, depth+1)
	case *ssa.Phi:
		ok = true
		for _, e := range v.Edges {
			ks, eok := c.origins(e, depth+1)
			keys, ok = append(keys, ks...), ok && eok
		}
		return keys, ok
	case *ssa.Parameter:
		return c.paramOrigins(v, depth)
	case *ssa.FreeVar:
		if bound := freeVarBinding(v); bound != nil {
			return c.origins(bound, depth+1)
		}
	case *ssa.Call:
		return c.resultOrigins(v, 0, depth)
	case *ssa.Extract:
		if call, isCall := v.Tuple.(*ssa.Call); isCall {
			return c.resultOrigins(call, v.Index, depth)
		}
	}
	return nil, false
}

// slot returns the key of the variable at addr: a field of LeaseID type
// (a Grant response's ID is keyed by the response), or a package variable.
func (c *leaseClasses) slot(addr ssa.Value) leaseKey {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		if c.b.isGrantResponse(a.X.Type()) {
			return grantRoot(a.X)
		}
		if st, ok := derefType(a.X.Type()).Underlying().(*types.Struct); ok {
			return st.Field(a.Field)
		}
	case *ssa.Global:
		return a.Object()
	}
	return nil
}

// paramOrigins follows a parameter of a package function to the arguments
// its static callers pass.
func (c *leaseClasses) paramOrigins(p *ssa.Parameter, depth int) ([]leaseKey, bool) {
	fn := p.Parent()
	idx := -1
	for i, q := range fn.Params {
		if q == p {
			idx = i
		}
	}
	sites := c.sites[fn]
	if idx < 0 || len(sites) == 0 {
		return nil, false
	}
	var keys []leaseKey
	for _, s := range sites {
		args := s.call.Common().Args
		if s.call.Common().IsInvoke() || idx >= len(args) {
			return nil, false
		}
		ks, ok := c.origins(args[idx], depth+1)
		if !ok {
			return nil, false
		}
		keys = append(keys, ks...)
	}
	return keys, true
}

// resultOrigins follows result i of a call of a package function to what
// its return statements return.
func (c *leaseClasses) resultOrigins(call *ssa.Call, i, depth int) ([]leaseKey, bool) {
	callee := call.Call.StaticCallee()
	if callee == nil || !c.b.inPackageFunc(&call.Call) {
		return nil, false
	}
	var keys []leaseKey
	found := false
	for _, blk := range callee.Blocks {
		if ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok && i < len(ret.Results) {
			ks, ok := c.origins(ret.Results[i], depth+1)
			if !ok {
				return nil, false
			}
			keys, found = append(keys, ks...), true
		}
	}
	return keys, found
}

func (c *leaseClasses) find(k leaseKey) leaseKey {
	for {
		p, ok := c.parent[k]
		if !ok || p == k {
			return k
		}
		k = p
	}
}

func (c *leaseClasses) union(x, y leaseKey) {
	if rx, ry := c.find(x), c.find(y); rx != ry {
		c.parent[rx] = ry
	}
}

// grantRoot is the value that keys a Grant response: the call returning it.
func grantRoot(v ssa.Value) leaseKey {
	for {
		switch x := v.(type) {
		case *ssa.Extract:
			v = x.Tuple
			continue
		case *ssa.UnOp:
			if x.Op == token.MUL {
				v = x.X
				continue
			}
		case *ssa.FreeVar:
			if bound := freeVarBinding(x); bound != nil {
				v = bound
				continue
			}
		}
		return v
	}
}

// leaseIDArg returns the lease ID a renewing call is handed, if one.
func leaseIDArg(b *builder, call *ssa.CallCommon) ssa.Value {
	for _, a := range call.Args {
		if b.isLeaseID(a.Type()) {
			return a
		}
	}
	return nil
}

// isLeaseID reports whether t is etcd's LeaseID.
func (b *builder) isLeaseID(t types.Type) bool {
	return b.isEtcdNamed(t, "LeaseID")
}

// isGrantResponse reports whether t is (a pointer to) etcd's
// LeaseGrantResponse.
func (b *builder) isGrantResponse(t types.Type) bool {
	return b.isEtcdNamed(derefType(t), "LeaseGrantResponse")
}

func (b *builder) isEtcdNamed(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Name() != name {
		return false
	}
	return b.ix.canonical(n.Obj().Pkg().Path()) == pkgEtcd
}

// isEtcdWithLease reports whether fn is clientv3.WithLease, the option that
// attaches a key to a lease.
func (b *builder) isEtcdWithLease(fn *types.Func) bool {
	return fn.Name() == "WithLease" && fn.Pkg() != nil && fn.Signature().Recv() == nil &&
		b.ix.canonical(fn.Pkg().Path()) == pkgEtcd
}

// inPackageFunc reports whether call statically calls a function of the
// package with a body.
func (b *builder) inPackageFunc(call *ssa.CallCommon) bool {
	f := call.StaticCallee()
	return f != nil && b.inPackage(f)
}
