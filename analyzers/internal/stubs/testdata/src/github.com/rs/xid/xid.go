// Package xid is a stub of github.com/rs/xid v1.6.0 for analysistest
// fixtures: real signatures, no behaviour.
package xid

type ID [12]byte

func New() (_ ID)                          { return }
func FromString(id string) (_ ID, _ error) { return }
func (id ID) String() (_ string)           { return }
