// Package weaktoken defines an Analyzer. TODO.
//
// # Analyzer weaktoken
//
// weaktoken: TODO one-line summary
//
// TODO: the full story.
package weaktoken
