// Package unfencedwrite defines an Analyzer that reports writes made under a
// distributed lock that the store cannot reject from a stale holder.
//
// # Analyzer unfencedwrite
//
// unfencedwrite: report store writes made while a lease is held that carry no fencing token
//
// TODO: the full story.
package unfencedwrite
