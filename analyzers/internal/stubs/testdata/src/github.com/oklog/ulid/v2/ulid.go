// Package ulid is a stub of github.com/oklog/ulid/v2 v2.1.2 for
// analysistest fixtures: real signatures, no behaviour.
package ulid

import "io"

type ULID [16]byte

// MonotonicEntropy hides its state, as the real one does.
type MonotonicEntropy struct {
	io.Reader
}

func Make() (id ULID)                                       { return }
func New(ms uint64, entropy io.Reader) (id ULID, err error) { return }
func MustNew(ms uint64, entropy io.Reader) (_ ULID)         { return }
func Now() (_ uint64)                                       { return }
func DefaultEntropy() (_ io.Reader)                         { return }
func Monotonic(entropy io.Reader, inc uint64) (_ *MonotonicEntropy) {
	return
}
func Parse(ulid string) (id ULID, err error) { return }
func (id ULID) String() (_ string)           { return }
