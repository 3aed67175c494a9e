package lease

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// An Elasticsearch write carries its condition in the request the
// application builds, not in the call that sends it. An olivere/elastic
// service or bulk request is built by a chain of setter calls, each
// returning its receiver:
//
//	client.Index().Index("docs").Id(id).Version(tok).VersionType("external").BodyJson(doc).Do(ctx)
//
// Elasticsearch rejects a stale write when the request carries one of:
//
//   - an external version (Version with VersionType "external" or
//     "external_gte"): the document keeps the highest version written, and
//     a request whose version is not above it fails with a conflict. The
//     lease's fencing token is the version: this is a fence, not a
//     compare-and-set;
//   - a version with the default (internal) versioning, or IfSeqNo and
//     IfPrimaryTerm: the write applies only to the document as read, a
//     compare-and-set (optimistic concurrency control);
//   - OpType("create"), or a BulkCreateRequest: the document is created only
//     if absent, like SQL's insert-if-absent.
//
// An index request without a document ID (or with Id("")) adds a document
// under an ID Elasticsearch makes up. Like Redis's XADD it overwrites
// nothing: every document before it stays, and an append-only index (logs,
// audit, analytics) takes a stale holder's extra document as a duplicate
// event, which its readers already handle.
//
// A bulk request is fenced when every request added to it is, where it is
// built or in a function of the package it is handed to. A request whose
// setters fencelint cannot see (one built elsewhere, a script whose
// Painless code may compare a stored fence) makes the write unknown: it is
// not reported, as for dynamic SQL. go-elasticsearch's requests are read
// the same way (esapi.go).

// esConditions are the olivere/elastic setters that make a write
// conditional by themselves.
var esConditions = []string{"IfSeqNo", "IfPrimaryTerm"}

// esFenced says what fences the olivere/elastic request or service v,
// whose write is about to be sent: by names the condition Elasticsearch
// checks, "" if none; token is the external version the request carries,
// the lease's fencing token; known is false when part of the request was
// built where fencelint does not see.
func (b *builder) esFenced(v ssa.Value) (by string, token ssa.Value, known bool) {
	chain, root := esChain(v)
	if root == nil {
		return "", nil, false
	}
	var version, create, id, scripted bool
	var versionArg ssa.Value
	versionType := "internal"
	for _, call := range esSetterCalls(chain) {
		f := calleeFunc(call.Common())
		switch name := f.Name(); {
		case slices.Contains(esConditions, name):
			return "a compare-and-set on the document's sequence number", nil, true
		case name == "Version":
			version, versionArg = true, arg(call.Common(), 0)
		case name == "VersionType":
			vt, ok := constString(arg(call.Common(), 0))
			if !ok {
				return "", nil, false
			}
			if vt == "force" { // writes whatever version it is given: no check
				return "", nil, true
			}
			versionType = vt
		case name == "OpType":
			op, ok := constString(arg(call.Common(), 0))
			if !ok {
				return "", nil, false
			}
			create = op == "create"
		case name == "Id":
			id = id || !emptyString(arg(call.Common(), 0))
		case name == "Script" || name == "ScriptedUpsert":
			scripted = true
		}
	}
	switch name := calleeFunc(root.Common()).Name(); {
	case name == "NewBulkCreateRequest" || create:
		return "a create-if-absent (op_type create)", nil, true
	case name == "Bulk" || name == "NewBulkService":
		by, known := b.esBulkFenced(chain)
		return by, nil, known
	case version:
		return esVersionFence(versionType, versionArg)
	case scripted:
		return "", nil, false // the script may compare a stored fence
	case !id && (typeName(root.Type()) == "IndexService" || typeName(root.Type()) == "BulkIndexRequest"):
		// As XADD: every document before it stays, and readers of an
		// append-only index (logs, audit, analytics) take a duplicate.
		return esAppend, nil, true
	}
	return "", nil, true
}

// esAppend says why an index request without a document ID needs no fence.
const esAppend = "it adds a document under an ID Elasticsearch makes up, overwriting none"

// esVersionFence says what a request's version does: with an external
// version type, the version is the token Elasticsearch compares (and
// weaktoken judges); with the internal one, a compare-and-set on the
// version read.
func esVersionFence(versionType string, version ssa.Value) (by string, token ssa.Value, known bool) {
	if strings.HasPrefix(versionType, "external") {
		return "an external version Elasticsearch compares", unwrap(version), true
	}
	return "a compare-and-set on the document's version", nil, true
}

// esBulkFenced says what fences every request added to the bulk service
// whose chain of values is chain: added where the service is built, or by
// a function of the package it is handed to.
func (b *builder) esBulkFenced(chain []ssa.Value) (by string, known bool) {
	adds := b.esAdds(chain, 1)
	if len(adds) == 0 {
		return "", false // filled elsewhere
	}
	for _, add := range adds {
		reqs, ok := variadic(arg(add.Common(), 0))
		if !ok {
			return "", false
		}
		for _, r := range reqs {
			if by, _, known = b.esFenced(r); !known || by == "" {
				return "", known
			}
		}
	}
	return "every request it sends is conditional", true
}

// emptyString reports whether v is the empty string: a constant, or the
// result of a function that returns "" in that place on every path
// (getMapping's `return mapping, ""`).
func emptyString(v ssa.Value) bool {
	if s, ok := constString(v); ok {
		return s == ""
	}
	ex, ok := v.(*ssa.Extract)
	if !ok {
		return false
	}
	call, ok := ex.Tuple.(*ssa.Call)
	if !ok {
		return false
	}
	fn := call.Call.StaticCallee()
	if fn == nil || len(fn.Blocks) == 0 {
		return false
	}
	returns := 0
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if s, ok := constString(ret.Results[ex.Index]); !ok || s != "" {
			return false
		}
		returns++
	}
	return returns > 0
}

// esAdds returns the Add calls made on any value of chain, in its function
// or, depth levels down, in a function of the package that receives one of
// them as a parameter (prepareBulk(action, index, id, doc, bulk)).
func (b *builder) esAdds(chain []ssa.Value, depth int) []ssa.CallInstruction {
	var adds []ssa.CallInstruction
	for _, v := range chain {
		for _, ref := range referrers(v) {
			call, ok := ref.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if f := calleeFunc(call.Common()); f != nil && f.Name() == "Add" && callRecv(call.Common()) == v {
				adds = append(adds, call)
				continue
			}
			callee := call.Common().StaticCallee()
			if depth == 0 || callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != b.pass.Pkg {
				continue
			}
			for i, a := range call.Common().Args {
				if a == v && i < len(callee.Params) {
					adds = append(adds, b.esAdds([]ssa.Value{callee.Params[i]}, depth-1)...)
				}
			}
		}
	}
	return adds
}

// esChain returns the values a request passes through on its way to v:
// v, then each receiver of the setter call that produced it, back to the
// call that made it (Client.Index(), NewBulkIndexRequest()), which it
// returns as root; root is nil when the request comes from elsewhere (a
// parameter, a field).
func esChain(v ssa.Value) (chain []ssa.Value, root *ssa.Call) {
	for v != nil && len(chain) < 64 {
		chain = append(chain, v)
		p := producer(v)
		if p == nil {
			return chain, nil
		}
		f := calleeFunc(p.Common())
		if f == nil || !esPackage(f.Pkg()) {
			return chain, nil
		}
		if recv := recvType(f); recv == nil || typeName(recv) == "Client" {
			return chain, p // NewBulkIndexRequest(), client.Index()
		}
		v = callRecv(p.Common())
	}
	return chain, nil
}

// esSetterCalls returns the setter calls made on the values of chain,
// chained or not (index := client.Index(); index.Id(id); index.Do(ctx)).
func esSetterCalls(chain []ssa.Value) []ssa.CallInstruction {
	var calls []ssa.CallInstruction
	for _, v := range chain {
		for _, ref := range referrers(v) {
			call, ok := ref.(ssa.CallInstruction)
			if !ok || call.Common().IsInvoke() || callRecv(call.Common()) != v {
				continue
			}
			if f := calleeFunc(call.Common()); f != nil && esPackage(f.Pkg()) {
				calls = append(calls, call)
			}
		}
	}
	return calls
}

// esPackage reports whether pkg is olivere/elastic, any major version.
func esPackage(pkg *types.Package) bool {
	return pkg != nil && normalizePath(pkg.Path()) == pkgElastic
}
