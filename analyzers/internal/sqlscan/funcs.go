package sqlscan

// FuncRole is what a known SQL function means to the lease model.
type FuncRole uint8

const (
	// RoleNone: not a function this package knows.
	RoleNone FuncRole = iota
	// RoleAcquire waits for a session lock (pg_advisory_lock).
	RoleAcquire
	// RoleTryAcquire takes a session lock if free and says whether it did
	// (pg_try_advisory_lock; MySQL GET_LOCK, which returns 0 on timeout).
	RoleTryAcquire
	// RoleAcquireXact waits for a lock held until the transaction ends.
	RoleAcquireXact
	// RoleTryAcquireXact takes a transaction lock if free.
	RoleTryAcquireXact
	// RoleRelease releases one session lock.
	RoleRelease
	// RoleReleaseAll releases every session lock of the connection.
	RoleReleaseAll
	// RoleLockQuery asks about a lock without taking it (IS_FREE_LOCK,
	// IS_USED_LOCK, whose connection id is not a token).
	RoleLockQuery
	// RoleSequence reads or moves a sequence (nextval, currval, setval):
	// a monotonic token source.
	RoleSequence
	// RoleNotToken produces values that are not ordered tokens: clocks,
	// random numbers, UUIDs.
	RoleNotToken
)

// String returns the role's name.
func (r FuncRole) String() string {
	switch r {
	case RoleAcquire:
		return "acquire"
	case RoleTryAcquire:
		return "try-acquire"
	case RoleAcquireXact:
		return "acquire-xact"
	case RoleTryAcquireXact:
		return "try-acquire-xact"
	case RoleRelease:
		return "release"
	case RoleReleaseAll:
		return "release-all"
	case RoleLockQuery:
		return "lock-query"
	case RoleSequence:
		return "sequence"
	case RoleNotToken:
		return "not-token"
	}
	return "none"
}

// KnownFunc returns the role of the SQL function with the given lower-case
// name (without schema), or RoleNone.
func KnownFunc(name string) FuncRole {
	switch name {
	case "pg_advisory_lock", "pg_advisory_lock_shared":
		return RoleAcquire
	case "pg_try_advisory_lock", "pg_try_advisory_lock_shared", "get_lock":
		return RoleTryAcquire
	case "pg_advisory_xact_lock", "pg_advisory_xact_lock_shared":
		return RoleAcquireXact
	case "pg_try_advisory_xact_lock", "pg_try_advisory_xact_lock_shared":
		return RoleTryAcquireXact
	case "pg_advisory_unlock", "pg_advisory_unlock_shared", "release_lock":
		return RoleRelease
	case "pg_advisory_unlock_all", "release_all_locks":
		return RoleReleaseAll
	case "is_free_lock", "is_used_lock":
		return RoleLockQuery
	case "nextval", "currval", "setval":
		return RoleSequence
	case "now", "current_timestamp", "localtimestamp", "current_time", "current_date", "localtime",
		"clock_timestamp", "statement_timestamp", "transaction_timestamp", "sysdate", "utc_timestamp",
		"unix_timestamp", "random", "rand", "gen_random_uuid", "uuid_generate_v4", "uuid_generate_v1",
		"uuid", "uuid_short", "uuidv4", "uuidv7", "randomblob":
		return RoleNotToken
	}
	return RoleNone
}

// Role returns the role of the called function.
func (c Call) Role() FuncRole { return KnownFunc(c.Name) }
