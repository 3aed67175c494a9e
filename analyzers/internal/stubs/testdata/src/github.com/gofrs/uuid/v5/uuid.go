// Package uuid is a stub of github.com/gofrs/uuid/v5 v5.5.1 for
// analysistest fixtures: real signatures, no behaviour.
package uuid

type UUID [16]byte

func NewV1() (_ UUID, _ error)                 { return }
func NewV4() (_ UUID, _ error)                 { return }
func NewV6() (_ UUID, _ error)                 { return }
func NewV7() (_ UUID, _ error)                 { return }
func Must(u UUID, err error) (_ UUID)          { return }
func FromString(text string) (_ UUID, _ error) { return }
func (u UUID) String() (_ string)              { return }
