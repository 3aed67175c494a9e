// Command fencelint reports writes made under a distributed lock or lease
// that the store cannot reject from a stale holder, and the checks around
// them (validity checks used as guards, renewals the work never hears from,
// tokens that are not monotonic).
//
// Run it on packages directly:
//
//	fencelint ./...
//	fencelint -json ./...
//	fencelint -heldcheck=false ./...   # every check but heldcheck
//	fencelint -unfencedwrite ./...     # only unfencedwrite
//
// or as a go vet tool, which caches results per package like vet does:
//
//	go vet -vettool=$(command -v fencelint) ./...
//
// fencelint -explain NAME (or fencelint help NAME) prints the full
// documentation of one check; fencelint help lists the checks and flags;
// fencelint -version prints the version. -format sarif writes a SARIF 2.1.0
// log for code scanning; -fix applies the suggested fixes and prints the
// findings that remain; -diff shows the fixes without applying them; -v
// says where the time went. On a terminal, progress is shown on stderr.
//
// Standalone, fencelint loads the packages of the analyzed packages' own
// modules from source and every other dependency from the compiler's export
// data, as go vet does: what a function in another package of your module
// does (it writes, it acquires, it is fenced by a parameter) is known where
// it is called, but not what a function in another module does, beyond the
// lock and store APIs fencelint knows by name. Under go vet every
// dependency is analyzed, and cached.
//
// # Exit codes
//
// Standalone:
//
//	0  no findings (with -json or -format sarif: always, unless packages fail to load)
//	1  a package failed to load, an analysis failed, or no package matched
//	2  bad command line: no packages, an unknown flag, an unknown check
//	3  findings were printed (with -fix: findings remain that have no fix)
//
// Under go vet, go vet prints the findings and exits 1 if there are any.
package main

import (
	"flag"
	"os"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/fencelint/fencelint/analyzers"
)

func main() {
	checks := analyzers.All()
	if code, handled := explainCommand(os.Args[1:], checks, os.Stdout, os.Stderr); handled {
		os.Exit(code)
	}
	if code, handled := helpCommand(os.Args[1:], checks, os.Stdout, os.Stderr); handled {
		os.Exit(code)
	}
	if code, handled := versionCommand(os.Args[1:], os.Stdout); handled {
		os.Exit(code)
	}
	if code, handled := standaloneCommand(os.Args[1:], checks, os.Stdout, os.Stderr); handled {
		os.Exit(code)
	}
	flag.Usage = func() { usage(flag.CommandLine.Output(), checks) }
	multichecker.Main(checks...)
}
