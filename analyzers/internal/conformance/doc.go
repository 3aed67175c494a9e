// Package conformance runs every fencelint check on the conformance module
// (testdata/conformance), a nested module that compiles realistic code
// against the real lock libraries and stores, and compares the findings with
// the expectations written in that code (see the conformance module's
// package comment for the // want syntax).
//
// Its tests also keep the two hand-written descriptions of those libraries
// honest: every row of the lease catalog must name a symbol that exists in
// the real module, with the receiver the analyzers will see, and every
// exported signature in the GOPATH stubs (analyzers/internal/stubs) must be
// identical to the real one.
//
// The tests download the nested module's dependencies from the Go module
// proxy and fail, never skip, when that is impossible.
package conformance
