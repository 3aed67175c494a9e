// Package heldcheck defines an Analyzer. TODO.
//
// # Analyzer heldcheck
//
// heldcheck: TODO one-line summary
//
// TODO: the full story.
package heldcheck
