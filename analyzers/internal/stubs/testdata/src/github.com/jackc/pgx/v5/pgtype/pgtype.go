// Package pgtype is a stub of github.com/jackc/pgx/v5/pgtype v5.13.0: the
// types sqlc's models use in fixtures.
package pgtype

import "time"

type InfinityModifier int8

// Timestamptz represents the PostgreSQL timestamptz type.
type Timestamptz struct {
	Time             time.Time
	InfinityModifier InfinityModifier
	Valid            bool
}

type Int4 struct {
	Int32 int32
	Valid bool
}

type Int8 struct {
	Int64 int64
	Valid bool
}

type Text struct {
	String string
	Valid  bool
}
