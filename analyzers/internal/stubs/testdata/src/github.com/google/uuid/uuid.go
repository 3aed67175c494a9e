// Package uuid is a stub of github.com/google/uuid v1.6.0 for analysistest
// fixtures: real signatures, no behaviour.
package uuid

type UUID [16]byte

func New() (_ UUID)                      { return }
func NewString() (_ string)              { return }
func NewRandom() (_ UUID, _ error)       { return }
func NewUUID() (_ UUID, _ error)         { return }
func NewV6() (_ UUID, _ error)           { return }
func NewV7() (_ UUID, _ error)           { return }
func Must(uuid UUID, err error) (_ UUID) { return }
func Parse(s string) (_ UUID, _ error)   { return }
func MustParse(s string) (_ UUID)        { return }
func (uuid UUID) String() (_ string)     { return }
