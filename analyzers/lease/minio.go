package lease

import (
	"golang.org/x/tools/go/ssa"
)

// A MinIO upload is conditional when its PutObjectOptions went through
// SetMatchETag (If-Match: the object is replaced only as read) or
// SetMatchETagExcept("*") (If-None-Match: *, create only), which
// minio-go v7 offers; the server refuses the upload with 412 otherwise:
//
//	opts := minio.PutObjectOptions{ContentType: "application/json"}
//	opts.SetMatchETag(info.ETag)
//	_, err := mc.PutObject(ctx, bucket, "state.json", r, size, opts)
//
// SetMatchETag("*") asks for If-Match: *, "replace whatever is there", and
// SetMatchETagExcept(etag) for "anything but this version": neither stops
// a stale holder from overwriting the next holder's object. Copies,
// composes, deletes and tagging carry no condition on the object they
// write (a copy's MatchETag conditions its source).

// minioFenced reports whether the PutObjectOptions among call's arguments
// went through a condition setter; known is false when the options were
// built where fencelint does not see (a parameter, a field).
func minioFenced(call *ssa.CallCommon) (fenced, known bool) {
	for _, a := range call.Args {
		if typeName(a.Type()) != "PutObjectOptions" {
			continue
		}
		switch x := unwrap(a).(type) {
		case *ssa.Const:
			return false, true // PutObjectOptions{}
		case *ssa.UnOp:
			alloc, ok := x.X.(*ssa.Alloc)
			if !ok {
				return false, false
			}
			return minioConditionSet(alloc), true
		}
		return false, false
	}
	return false, true // the call takes no options (v6's PutObject without them)
}

// minioConditionSet reports whether a condition setter is called on the
// options in alloc (opts.SetMatchETag(etag)).
func minioConditionSet(alloc *ssa.Alloc) bool {
	for _, ref := range referrers(alloc) {
		call, ok := ref.(ssa.CallInstruction)
		if !ok || callRecv(call.Common()) != alloc {
			continue
		}
		etag, isConst := constString(arg(call.Common(), 0))
		switch f := calleeFunc(call.Common()); {
		case f == nil:
		case f.Name() == "SetMatchETag" && (!isConst || etag != "*"):
			return true // If-Match: the ETag read
		case f.Name() == "SetMatchETagExcept" && isConst && etag == "*":
			return true // If-None-Match: *
		}
	}
	return false
}
