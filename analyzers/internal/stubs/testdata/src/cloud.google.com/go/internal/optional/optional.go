// Package optional is a stub of cloud.google.com/go/internal/optional.
package optional

type (
	Bool   interface{}
	String interface{}
	Int    interface{}
)
