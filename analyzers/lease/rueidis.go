package lease

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// rueidis (github.com/redis/rueidis) sends a command its builder spells
// out as a chain of steps:
//
//	client.Do(ctx, client.B().Set().Key(k).Value(v).Nx().ExSeconds(10).Build())
//
// The step called on the Builder names the command (Set, Hset, JsonSet:
// SET, HSET, JSON.SET), the Key step's argument is its key and the other
// steps are its options (Nx, ExSeconds). A command is read where the chain
// is written out, in the function that sends it; one built elsewhere, or
// chosen at run time, plays no role. Its roles are redigo's for the same
// command (commandRole), with one difference: a SET NX is a create-only
// write, never a hand-rolled lock, since a rueidis lock's release (a DEL
// or a compare-and-delete script) is not read yet.

const (
	pkgRueidis     = "github.com/redis/rueidis"
	pkgRueidisCmds = "github.com/redis/rueidis/internal/cmds"
)

// A rueidisCommand is a command read from a builder chain.
type rueidisCommand struct {
	name  string    // "SET", "JSON.SET"
	key   ssa.Value // the first key, or nil
	steps []string  // the option steps' names, as the builder spells them ("Nx", "ExSeconds")
}

// rueidisChain reads the command built by the chain that v, a Completed,
// is the end of.
func rueidisChain(v ssa.Value) (rueidisCommand, bool) {
	var cmd rueidisCommand
	for range 64 {
		call, ok := unwrap(v).(*ssa.Call)
		if !ok {
			return rueidisCommand{}, false
		}
		f := call.Call.StaticCallee()
		if f == nil || f.Signature.Recv() == nil || len(call.Call.Args) == 0 {
			return rueidisCommand{}, false
		}
		recv := call.Call.Args[0]
		if rueidisBuilder(recv.Type()) {
			cmd.name = rueidisCommandName(f.Name())
			return cmd, true
		}
		switch name := f.Name(); name {
		case "Key":
			if keys, ok := variadic(arg(&call.Call, 1)); ok && len(keys) > 0 {
				cmd.key = keys[0]
			} else if len(call.Call.Args) == 2 {
				cmd.key = call.Call.Args[1]
			}
		case "Build", "Pin", "ToPipe", "ToRetryable":
		default:
			cmd.steps = append(cmd.steps, name)
		}
		v = recv
	}
	return rueidisCommand{}, false
}

// rueidisBuilder reports whether t is rueidis's command Builder.
func rueidisBuilder(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == "Builder" && n.Obj().Pkg() != nil && CanonicalPath(n.Obj().Pkg().Path()) == pkgRueidisCmds
}

// rueidisCommandName spells the command a Builder method starts: the
// method's name upper-cased, a module's prefix (Json, Ft, Ts, Bf, Cf)
// followed by a dot (JsonSet: JSON.SET).
func rueidisCommandName(method string) string {
	for _, module := range []string{"Json", "Ft", "Ts", "Bf", "Cf", "Cms", "Topk", "Tdigest"} {
		if rest, ok := strings.CutPrefix(method, module); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
			return strings.ToUpper(module) + "." + strings.ToUpper(rest)
		}
	}
	return strings.ToUpper(method)
}

// rueidisRole returns the command a rueidis Do sends (its Completed at
// the API's Arg) and what that command is for leases.
func rueidisRole(call *ssa.CallCommon, api *API) (string, Role) {
	cmd, ok := rueidisChain(apiArg(call, api))
	if !ok {
		return "", 0
	}
	nx := slices.Contains(cmd.steps, "Nx")
	return cmd.name, commandRole(cmd.name, nx, false) // a SET NX: create-only (above)
}

// isRueidis reports whether c calls a rueidis client's Do.
func isRueidis(c *ssa.CallCommon) bool {
	f := calleeFunc(c)
	return f != nil && f.Pkg() != nil && CanonicalPath(f.Pkg().Path()) == pkgRueidis && f.Name() == "Do"
}

// rueidisKeys returns the key a rueidis Do's command names, as
// redisKeyArgs lists keys.
func rueidisKeys(c *ssa.CallCommon) []ssa.Value {
	cmd, ok := rueidisChain(arg(c, 1))
	if !ok || cmd.key == nil {
		return nil
	}
	return []ssa.Value{cmd.key}
}
