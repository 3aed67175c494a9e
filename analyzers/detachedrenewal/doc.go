// Package detachedrenewal defines an Analyzer. TODO.
//
// # Analyzer detachedrenewal
//
// detachedrenewal: TODO one-line summary
//
// TODO: the full story.
package detachedrenewal
