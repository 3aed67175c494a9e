// Package catalogdoc writes the README's tables of supported lock libraries
// and stores from lease.Catalog(), lease.Spawners() and lease.Forks(), so that the README says
// what the catalog knows and nothing else. Its test compares the README with
// what Markdown returns, and rewrites it with -update:
//
//	go test ./analyzers/lease/internal/catalogdoc -update
package catalogdoc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fencelint/fencelint/analyzers/lease"
)

// Begin and End mark the generated part of the README.
const (
	Begin = "<!-- catalog tables: generated from lease.Catalog() by go test ./analyzers/lease/internal/catalogdoc -update; do not edit -->"
	End   = "<!-- end of catalog tables -->"
)

// maxNames is how many symbols a cell lists before it says how many more.
const maxNames = 10

// Markdown returns the tables, between Begin and End.
func Markdown() string {
	rows := lease.Catalog()
	var sb strings.Builder
	sb.WriteString(Begin + "\n\n")
	locks(&sb, rows)
	sb.WriteString("\n")
	stores(&sb, rows)
	sb.WriteString("\n")
	neverTokens(&sb, rows)
	sb.WriteString("\n")
	freshIDs(&sb, rows)
	sb.WriteString("\n")
	messages(&sb, rows)
	sb.WriteString("\n")
	refreshes(&sb, rows)
	sb.WriteString("\n")
	spawners(&sb)
	sb.WriteString("\n")
	forks(&sb)
	sb.WriteString("\n" + End)
	return sb.String()
}

// Role groups, one a column.
const (
	regionRoles  = lease.RoleAcquire | lease.RoleTryAcquire | lease.RoleCallback | lease.RoleElect | lease.RoleLocker | lease.RoleHandler
	renewalRoles = lease.RoleRenew | lease.RoleAutoRenew | lease.RoleLost | lease.RoleOnLost | lease.RoleOnLease | lease.RoleEventCallback
	writeRoles   = lease.RoleWrite | lease.RoleFenced
)

// locks writes the table of lock libraries: every system with a row that
// opens a lease region or checks one.
func locks(sb *strings.Builder, rows []lease.API) {
	sb.WriteString("| library | packages | lease regions | validity checks | renewal and lost signals | tokens | not tokens |\n")
	sb.WriteString("| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, sys := range systems(rows, regionRoles|lease.RoleCheck) {
		of := bySystem(rows, sys)
		fmt.Fprintf(sb, "| %s | %s | %s | %s | %s | %s | %s |\n", sys, packages(of),
			names(of, regionRoles), names(of, lease.RoleCheck), names(of, renewalRoles),
			names(of, lease.RoleToken), names(of, lease.RoleNotToken))
	}
}

// stores writes the table of stores: every system with a writing row.
func stores(sb *strings.Builder, rows []lease.API) {
	sb.WriteString("| store | packages | writes | fenced when | fenced by themselves | how to fence |\n")
	sb.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	for _, sys := range systems(rows, writeRoles) {
		of := bySystem(rows, sys)
		var writes []lease.API
		var when []string
		for _, r := range of {
			if r.Role&lease.RoleWrite == 0 || r.Role.Has(lease.RoleFenced) {
				continue
			}
			writes = append(writes, r)
			if w := r.Fence.When(); w != "" && !slices.Contains(when, w) {
				when = append(when, w)
			}
		}
		fenced := names(of, lease.RoleFenced)
		whenCell := strings.Join(when, "; ")
		if whenCell == "" {
			whenCell = "never, by the call alone"
		}
		fmt.Fprintf(sb, "| %s | %s | %s | %s | %s | %s |\n", sys, packages(withRoles(of, writeRoles)),
			names(writes, lease.RoleWrite), whenCell, fenced, sys.FenceAdvice())
	}
}

// neverTokens lists the values no library issues that are never tokens.
func neverTokens(sb *strings.Builder, rows []lease.API) {
	var none []lease.API
	for _, r := range rows {
		if r.System == "" && r.Role.Has(lease.RoleNotToken) {
			none = append(none, r)
		}
	}
	fmt.Fprintf(sb, "Never fencing tokens, whatever the library: %s.\n", namesByPackage(none, lease.RoleNotToken))
}

// freshIDs lists the generators of identifiers no other holder can know.
func freshIDs(sb *strings.Builder, rows []lease.API) {
	fmt.Fprintf(sb, "Fresh identifiers: %s. A Redis key built whole from one, drawn where the key is written or "+
		"passed in by its caller, names a new object: writing it needs no fence (the write that links it into shared "+
		"state does). SQL rows under one are still judged: other columns find them. A seeded generator (%s) is fresh only "+
		"with a source of entropy: %s, or %s over one.\n", namesByPackage(rows, lease.RoleFreshID),
		namesAll(seeded(rows, true), lease.RoleFreshID),
		namesAll(seeded(rows, false), lease.RoleEntropy), namesAll(seeded(rows, true), lease.RoleEntropy))
}

// seeded returns the rows that are (or are not) Seeded.
func seeded(rows []lease.API, want bool) []lease.API {
	var out []lease.API
	for _, r := range rows {
		if r.Seeded == want {
			out = append(out, r)
		}
	}
	return out
}

// messages lists the calls that send a message rather than write state.
func messages(sb *strings.Builder, rows []lease.API) {
	for _, sys := range systems(rows, lease.RoleMessage) {
		fmt.Fprintf(sb, "Messages, not writes (%s): %s. They overwrite nothing another holder wrote; where "+
			"subscribers apply messages as state, last message wins, declare the publishing function `//fencelint:write`.\n",
			sys, namesAll(bySystem(rows, sys), lease.RoleMessage))
		if sys == lease.Redis {
			sb.WriteString("So is a list push (`LPush`, `RPush`, `LPushX`, `RPushX`, or redigo's) made in a method of a type " +
				"whose methods also take from a list with a blocking pop (`BLPop`, `BRPop`, `BLMove`, `BRPopLPush`, `BLMPop`): " +
				"a queue of the application's, unless the pushing function also trims, pops or rewrites the list.\n")
		}
	}
}

// refreshes lists the calls that set a key's value or TTL again, which
// make a SET NX a marker rather than a lock.
func refreshes(sb *strings.Builder, rows []lease.API) {
	for _, sys := range systems(rows, lease.RoleRefresh) {
		fmt.Fprintf(sb, "Refreshes (%s): %s. A `SetNX` whose own key its function refreshes with one of them on a path "+
			"the `SetNX`'s result does not decide is a marker with a sliding TTL (\"seen in the last 10 minutes\"), not a lock.\n",
			sys, namesAll(bySystem(rows, sys), lease.RoleRefresh))
	}
}

// spawners writes the table of the calls that run the work they are
// handed: that work runs under the lease held where it is handed over.
func spawners(sb *strings.Builder) {
	sb.WriteString("Work handed to these runs under the lease region it is handed over in; a write it makes is reported at the call that hands it over.\n\n")
	sb.WriteString("| package | calls | what runs |\n")
	sb.WriteString("| --- | --- | --- |\n")
	all := lease.Spawners()
	for len(all) > 0 {
		n := 1
		for n < len(all) && all[n].Pkg == all[0].Pkg && spawnKind(all[n]) == spawnKind(all[0]) {
			n++
		}
		var calls []string
		for _, sp := range all[:n] {
			name := sp.Name
			if sp.Recv != "" {
				name = sp.Recv + "." + name
			}
			if c := "`" + name + "`"; !slices.Contains(calls, c) {
				calls = append(calls, c)
			}
		}
		fmt.Fprintf(sb, "| `%s` | %s | %s |\n", all[0].Pkg, strings.Join(calls, ", "), spawnKind(all[0]))
		all = all[n:]
	}
}

// spawnKind says what a spawner runs, and where.
func spawnKind(sp lease.Spawner) string {
	switch {
	case len(sp.Handler) > 0:
		methods := make([]string, len(sp.Handler))
		for i, m := range sp.Handler {
			methods[i] = "`" + m + "`"
		}
		return "the handler's funcs (a struct literal's fields) or its " + strings.Join(methods, ", ") +
			" methods, on the informer's goroutine, for every event"
	case sp.Goroutine:
		return "the function, on a goroutine of its own"
	case sp.Retry:
		return "the function, in the caller's goroutine, until it returns no error: a lock it takes is held after the call when the call returns none"
	}
	return "the function, in the caller's goroutine, until the call returns"
}

// forks writes the table of forks and older import paths.
func forks(sb *strings.Builder) {
	sb.WriteString("| import path | reads as | which |\n")
	sb.WriteString("| --- | --- | --- |\n")
	for _, f := range lease.Forks() {
		fmt.Fprintf(sb, "| `%s` | `%s` | %s |\n", f.Path, f.Pkg, f.What)
	}
}

// systems returns, in catalog order, the systems with a row of any of roles.
func systems(rows []lease.API, roles lease.Role) []lease.System {
	var out []lease.System
	for _, r := range rows {
		if r.System != "" && r.Role&roles != 0 && !slices.Contains(out, r.System) {
			out = append(out, r.System)
		}
	}
	return out
}

// withRoles returns the rows with any of roles.
func withRoles(rows []lease.API, roles lease.Role) []lease.API {
	var out []lease.API
	for _, r := range rows {
		if r.Role&roles != 0 {
			out = append(out, r)
		}
	}
	return out
}

func bySystem(rows []lease.API, sys lease.System) []lease.API {
	var out []lease.API
	for _, r := range rows {
		if r.System == sys {
			out = append(out, r)
		}
	}
	return out
}

// packages lists the rows' import paths.
func packages(rows []lease.API) string {
	var paths []string
	for _, r := range rows {
		p := "`" + r.Pkg + "`"
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	return strings.Join(paths, ", ")
}

// names lists the symbols of the rows with any of roles, at most maxNames.
func names(rows []lease.API, roles lease.Role) string {
	all := symbols(rows, roles)
	if len(all) > maxNames {
		return strings.Join(all[:maxNames], ", ") + fmt.Sprintf(" and %d more", len(all)-maxNames)
	}
	return strings.Join(all, ", ")
}

// namesAll lists every symbol of the rows with any of roles.
func namesAll(rows []lease.API, roles lease.Role) string {
	return strings.Join(symbols(rows, roles), ", ")
}

// namesByPackage lists every symbol of the rows with any of roles, grouped
// by package, for values that several packages of one last element supply
// (google/uuid's, gofrs/uuid's and pborman/uuid's New): "`google/uuid`:
// `New`, `NewString`; `time`: `Now`".
func namesByPackage(rows []lease.API, roles lease.Role) string {
	var pkgs []string
	byPkg := make(map[string][]string)
	for _, r := range rows {
		if r.Role&roles == 0 {
			continue
		}
		pkg := strings.TrimPrefix(r.Pkg, "github.com/")
		name := "`" + methodName(r) + "`"
		if _, ok := byPkg[pkg]; !ok {
			pkgs = append(pkgs, pkg)
		}
		if !slices.Contains(byPkg[pkg], name) {
			byPkg[pkg] = append(byPkg[pkg], name)
		}
	}
	groups := make([]string, len(pkgs))
	for i, pkg := range pkgs {
		groups[i] = "`" + pkg + "`: " + strings.Join(byPkg[pkg], ", ")
	}
	return strings.Join(groups, "; ")
}

// symbols names the rows with any of roles, once each, in catalog order:
// "`Mutex.Lock`", "`NewSession`", "`Stat.Czxid`", "`Set`" (go-redis's
// commands are on any receiver).
func symbols(rows []lease.API, roles lease.Role) []string {
	var out []string
	for _, r := range rows {
		if r.Role&roles == 0 {
			continue
		}
		name := methodName(r)
		if r.System == "" { // uuid.New, time.Now, rand.Int: say whose
			name = lastElem(r.Pkg) + "." + r.Name
		}
		name = "`" + name + "`"
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// methodName names a row's symbol with its receiver, if it has one:
// "Mutex.Lock", "NewSession" (go-redis's commands, on any receiver: "Set").
func methodName(r lease.API) string {
	if r.Recv != "" && r.Recv != "*" {
		return r.Recv + "." + r.Name
	}
	return r.Name
}

func lastElem(path string) string {
	return path[strings.LastIndex(path, "/")+1:]
}
