// Package testwrites holds a test whose write is reported only with the
// lease analyzer's -testwrites flag.
package testwrites
