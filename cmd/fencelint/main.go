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
// fencelint -explain NAME prints the full documentation of one check;
// fencelint -help lists the checks; fencelint help NAME lists a check's
// flags. The other flags (-json, -c, -fix, -diff, -test) are those of
// golang.org/x/tools/go/analysis/multichecker.
//
// Standalone, fencelint loads the packages of the analyzed packages' own
// modules from source and every other dependency from the compiler's export
// data, as go vet does: what a function in another package of your module
// does (it writes, it acquires, it is fenced by a parameter) is known where
// it is called, but not what a function in another module does, beyond the
// lock and store APIs fencelint knows by name. Under go vet every
// dependency is analyzed, and cached. (With -fix, -diff or the debugging
// flags, multichecker's driver runs instead, which type-checks every
// dependency from source: slower, with the same findings as go vet.)
//
// # Exit codes
//
// Standalone:
//
//	0  no findings (and, with -json, always unless packages fail to load)
//	1  a package failed to load or an analysis failed
//	2  bad command line: an unknown flag, -explain without a known check
//	3  findings were printed
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
	if code, handled := standaloneCommand(os.Args[1:], checks, os.Stdout, os.Stderr); handled {
		os.Exit(code)
	}
	flag.Usage = func() { usage(flag.CommandLine.Output(), checks) }
	multichecker.Main(checks...)
}
