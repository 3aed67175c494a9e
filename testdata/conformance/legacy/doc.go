// Package legacy is the part of fencelint's conformance suite for forks and
// older import paths of the lock libraries (lease.Forks): one package per
// path the Go module proxy serves, compiled against that release and
// analyzed like the main conformance module. It is its own module because
// etcd 3.3 and 3.4 need gRPC 1.26, which the current libraries do not build
// with. kooper, whose last release takes client-go's ConfigMapsLeases lock
// (gone from client-go since), is here with client-go 0.27 for the same
// reason.
package legacy
