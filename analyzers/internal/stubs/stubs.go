// Package stubs holds GOPATH-style stubs of the lock libraries and stores
// that fencelint knows, for fast analysistest fixtures.
//
// The tree under testdata/src mirrors import paths
// (testdata/src/go.etcd.io/etcd/client/v3/concurrency, ...). Every exported
// signature in it is copied from the real module at the version listed in
// the package comment of each stub. Bodies only return zero values: a body
// that panics would make ctrlflow treat the call as never returning, and
// the code after it as dead.
// Only the subset that the lease catalog and realistic fixtures need is
// there. It lives under testdata so that the go command never builds it as
// part of this module (its imports name modules this module does not
// require); the conformance suite under testdata/conformance compiles the
// same kind of code against the real modules.
//
// Tests do not read this package directly: analyzers/internal/fencetest
// copies FS into a temporary GOPATH next to each analyzer's own fixtures.
package stubs

import (
	"embed"
	"io/fs"
)

//go:embed all:testdata/src
var tree embed.FS

// FS returns the stub tree rooted at the GOPATH src directory: its entries
// are the first elements of import paths ("github.com", "go.etcd.io", ...).
func FS() fs.FS {
	sub, err := fs.Sub(tree, "testdata/src")
	if err != nil {
		panic("internal error: stubs: " + err.Error())
	}
	return sub
}
