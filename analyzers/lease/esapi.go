package lease

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// The official client, go-elasticsearch, sends a write three ways, each
// with the same parameters as the request's fields:
//
//	esapi.IndexRequest{Index: "orders", DocumentID: id, Body: body}.Do(ctx, es)
//	es.Index("orders", body, es.Index.WithDocumentID(id), es.Index.WithVersion(tok), es.Index.WithVersionType("external"))
//	bi.Add(ctx, esutil.BulkIndexerItem{Action: "index", DocumentID: id, Body: body})
//
// They are judged as olivere/elastic's requests (elastic.go) are, from the
// fields set in the literal or the With options passed: IfSeqNo or a
// version (not with version_type force) fences the write, a create (the
// Create API, op_type or a bulk action "create") is a create-if-absent,
// and an index request without a document ID adds a document under an ID
// Elasticsearch makes up. An update's body may hold a script, which is
// not read: an update without a condition is judged unfenced. A field or
// option whose value fencelint cannot read (an action or op type chosen at
// run time) leaves the write unjudged.

// esapiKinds maps each API function whose writes are judged to the request
// struct it fills.
var esapiKinds = map[string]string{
	"Index": "IndexRequest", "Create": "CreateRequest", "Update": "UpdateRequest", "Delete": "DeleteRequest",
}

// bulkActionKinds maps a bulk item's action to the request it stands for.
var bulkActionKinds = map[string]string{
	"index": "IndexRequest", "create": "CreateRequest", "update": "UpdateRequest", "delete": "DeleteRequest",
}

// esapiFieldCall returns the catalog row of a call of one of the client's
// API functions through the field that holds it (es.Index(...)), with the
// field's name, or nil.
func (b *builder) esapiFieldCall(call *ssa.CallCommon) (*API, string) {
	load, ok := call.Value.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, ""
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, ""
	}
	fv := fieldVar(fa.X.Type(), fa.Field)
	api := b.ix.lookupField(fa.X.Type(), fv)
	if api == nil || api.Role != RoleWrite {
		return nil, ""
	}
	return api, fv.Name()
}

// esapiFenced says what fences a go-elasticsearch write: by names the
// condition, "" if none; known is false when a field it depends on cannot
// be read.
func (b *builder) esapiFenced(call *ssa.CallCommon, api *API) (by string, token ssa.Value, known bool) {
	switch {
	case api.Recv == "BulkIndexer":
		fields, ok := literalFields(arg(call, 1))
		if !ok {
			return "", nil, false
		}
		action, ok := constString(fields["Action"])
		if !ok {
			return "", nil, false
		}
		return esapiJudge(bulkActionKinds[action], fields)
	case api.Field:
		return esapiJudge(esapiKinds[api.Name], esapiOptions(call))
	default:
		fields, ok := literalFields(callRecv(call))
		if !ok {
			return "", nil, false
		}
		return esapiJudge(api.Recv, fields)
	}
}

// esapiJudge judges a request of kind (IndexRequest, ...) from its set
// fields.
func esapiJudge(kind string, fields map[string]ssa.Value) (by string, token ssa.Value, known bool) {
	if kind == "" {
		return "", nil, false
	}
	if _, ok := fields["IfSeqNo"]; ok {
		return "a compare-and-set on the document's sequence number", nil, true
	}
	if op, ok := fields["OpType"]; ok {
		s, isConst := constString(op)
		if !isConst {
			return "", nil, false
		}
		if s == "create" {
			kind = "CreateRequest"
		}
	}
	if kind == "CreateRequest" {
		return "a create-if-absent (op_type create)", nil, true
	}
	if version, ok := fields["Version"]; ok {
		vt, set := fields["VersionType"]
		s, isConst := constString(vt)
		switch {
		case set && !isConst:
			return "", nil, false
		case !set:
			s = "internal"
		}
		if s != "force" {
			return esVersionFence(s, pointee(version))
		}
	}
	if id, ok := fields["DocumentID"]; kind == "IndexRequest" && (!ok || emptyString(id)) {
		return esAppend, nil, true
	}
	return "", nil, true
}

// pointee returns the value stored at v when v is the address of a local
// the function fills once (Version: &v, WithVersion(int(tok)) keeps it
// as is).
func pointee(v ssa.Value) ssa.Value {
	if alloc, ok := unwrap(v).(*ssa.Alloc); ok {
		if st := onlyStoreInto(alloc); st != nil {
			return unwrap(st.Val)
		}
	}
	return v
}

// literalFields returns the fields set in the struct literal v was loaded
// from; false when v comes from elsewhere.
func literalFields(v ssa.Value) (map[string]ssa.Value, bool) {
	v = unwrap(v)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	return storedFields(alloc), true
}

// esapiOptions returns the request fields that the With options passed to
// an API function set (es.Index.WithDocumentID(id) sets DocumentID), with
// the value each is given.
func esapiOptions(call *ssa.CallCommon) map[string]ssa.Value {
	fields := make(map[string]ssa.Value)
	args := call.Args
	if len(args) == 0 {
		return fields
	}
	opts, _ := variadic(args[len(args)-1])
	for _, o := range opts {
		p := producer(o)
		if p == nil {
			continue
		}
		f := calleeFunc(p.Common())
		if f == nil || !strings.HasPrefix(f.Name(), "With") || !esapiType(recvType(f)) {
			continue
		}
		fields[strings.TrimPrefix(f.Name(), "With")] = arg(p.Common(), 0)
	}
	return fields
}

// esapiType reports whether t is a type of go-elasticsearch's esapi.
func esapiType(t types.Type) bool {
	return normalizePath(pkgPathOf(t)) == pkgESAPI
}
