// Package fencedirective defines an Analyzer that checks fencelint's own
// directives.
//
// # Analyzer fencedirective
//
// fencedirective: report malformed, misplaced and unused fencelint directives
//
// fencelint reads directives in Go's directive form (no space after the
// slashes): //fencelint:acquire, release, renew, check, token, write and
// fenced on a function's doc comment, and //fencelint:ignore REASON on a
// line or the line before a statement. A directive fencelint cannot use is
// worse than none: the author believes something is declared or silenced
// when it is not. So this analyzer reports:
//
//   - an unknown directive name (//fencelint:aquire);
//   - a directive written with a space (// fencelint:ignore), which Go tools
//     do not treat as a directive;
//   - a role directive that is not in a function's doc comment, or that has
//     an argument;
//   - //fencelint:ignore without a reason: say why the finding is safe;
//   - //fencelint:ignore on a line where fencelint finds nothing to look at
//     (no store write, lease, check, renewal or goroutine), usually left
//     behind after the code moved.
package fencedirective
