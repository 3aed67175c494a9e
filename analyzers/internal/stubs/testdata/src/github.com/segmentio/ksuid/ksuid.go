// Package ksuid is a stub of github.com/segmentio/ksuid v1.0.4 for
// analysistest fixtures: real signatures, no behaviour.
package ksuid

import "time"

type KSUID [20]byte

func New() (_ KSUID)                                         { return }
func NewRandom() (ksuid KSUID, err error)                    { return }
func NewRandomWithTime(t time.Time) (ksuid KSUID, err error) { return }
func Parse(s string) (_ KSUID, _ error)                      { return }
func (i KSUID) String() (_ string)                           { return }
