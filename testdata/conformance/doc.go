// Package conformance is fencelint's conformance suite: realistic code, one
// package per lock library and store, compiled against the real modules
// (see go.mod) and analyzed by analyzers/internal/conformance in the root
// module with every fencelint check.
//
// # Expectations
//
// A comment of the form
//
//	// want ANALYZER:"REGEXP" [ANALYZER:"REGEXP" ...]
//
// (or the same inside /* */, for lines that already end in a line comment)
// expects, for each item, exactly one diagnostic from ANALYZER on the line
// where the comment starts, whose message matches REGEXP. REGEXP is a Go
// string literal, interpreted ("...") or raw (`...`). Every diagnostic that
// no item matches is unexpected, so a line with no want comment expects
// silence: the hard negatives (correctly fenced writes, reads, logging) are
// simply code without a want. The checks report a call at its opening
// parenthesis (where go/ssa places calls), so in a call chain spread over
// several lines the want goes on the line of the reported call's "(" (for
// an etcd Txn, the Commit() line).
//
// # Adding cases
//
// Forks and older import paths of the libraries (lease.Forks) have their
// cases in the nested module legacy/, one package per path.
//
// Add a package (or a file) per library or store, written the way teams
// write such code, with positives and hard negatives. This is its own
// module: after importing a new module or package, run go mod tidy in this
// directory (the root module must not depend on these libraries). The test
// is go test ./analyzers/internal/conformance/ in the root module.
//
// The fixed phrases the checks put in their messages:
//
//	unfencedwrite    "without a fencing token"
//	heldcheck        "only tells that the lease was held"
//	detachedrenewal  "never hears"
//	weaktoken        "is not a fencing token"
//	fencedirective   "fencelint" or "directive"
package conformance
