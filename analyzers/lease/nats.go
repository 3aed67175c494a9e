package lease

import (
	"golang.org/x/tools/go/ssa"
)

// natsLastRevision reports whether a NATS KV Delete or Purge passes the
// LastRevision option: the server deletes only if the key's last revision
// is the one the caller read, so a stale holder's delete of a key the next
// holder wrote since fails. known is false when the options are a slice
// built elsewhere (opts...).
func natsLastRevision(call *ssa.CallCommon) (fenced, known bool) {
	args := callArgs(call)
	if len(args) == 0 {
		return false, true
	}
	opts, ok := variadic(args[len(args)-1])
	if !ok {
		return false, false
	}
	for _, o := range opts {
		if p := producer(o); p != nil {
			if f := calleeFunc(p.Common()); f != nil && f.Name() == "LastRevision" {
				return true, true
			}
		}
	}
	return false, true
}
