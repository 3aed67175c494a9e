// Package uuid is a stub of github.com/google/uuid v1.6.0 for analysistest
// fixtures: real signatures, no behaviour.
package uuid

type UUID [16]byte

func New() UUID                      { panic("stub") }
func NewString() string              { panic("stub") }
func NewRandom() (UUID, error)       { panic("stub") }
func NewUUID() (UUID, error)         { panic("stub") }
func NewV6() (UUID, error)           { panic("stub") }
func NewV7() (UUID, error)           { panic("stub") }
func Must(uuid UUID, err error) UUID { panic("stub") }
func Parse(s string) (UUID, error)   { panic("stub") }
func MustParse(s string) UUID        { panic("stub") }
func (uuid UUID) String() string     { panic("stub") }
