// Package primitive is a stub of go.mongodb.org/mongo-driver/bson/primitive
// (v1.12): the document types.
package primitive

// D is an ordered document.
type D []E

// E is one element of a D.
type E struct {
	Key   string
	Value interface{}
}

// M is an unordered document.
type M map[string]interface{}

// A is an array.
type A []interface{}
