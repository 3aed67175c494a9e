// Package luascan reads the Lua source of Redis scripts (EVAL, EVALSHA,
// go-redis NewScript) well enough for the fencelint lease model to tell
// whether the script fences its writes: which redis.call/redis.pcall
// (Valkey: server.call/server.pcall) commands it issues with which
// KEYS[i]/ARGV[i] arguments, which of them write, and whether each write
// only happens after the script compared a value it read from Redis with
// an ARGV: an ordered comparison (a fencing token check) or an equality
// (the owner check of the compare-and-delete release and
// compare-and-extend idioms of redsync and bsm/redislock). A guard holds
// after an if when every branch that falls through ends with it (the key
// missing in one branch, the token newer in the other is a fence). It also
// tells a counter (Script.CounterKey): a script whose every write steps
// the number stored at one key, as an ID generator's does.
//
// It has a real Lua 5.1+ tokenizer (long strings, long comments, escapes)
// and a recursive-descent parser of statements and expressions; values are
// tracked through locals, tonumber/tostring and "or" defaults. What it
// cannot follow is reported as Unknown rather than guessed at.
//
// The package uses only the standard library, never panics, and keeps no
// state between calls.
package luascan
