package gen

import (
	"bytes"
	"fmt"
	"regexp"
)

// ParseSchema parses the schema files in order, as one database would see
// them executed, with the real parser for engine.
func ParseSchema(engine Engine, sources []Source) (*Schema, error) {
	b := newBuilder(engine)
	sources = applied(sources)
	switch engine {
	case PostgreSQL:
		for _, src := range sources {
			if err := b.parsePostgres(src); err != nil {
				return nil, err
			}
		}
	case MySQL:
		for _, src := range sources {
			if err := b.parseMySQL(src); err != nil {
				return nil, err
			}
		}
	case SQLite:
		if err := b.parseSQLite(sources); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown engine %q: use postgresql, mysql or sqlite", engine)
	}
	return &b.schema, nil
}

// applied returns the part of each schema file that a migration tool
// applies, as sqlc reads it (internal/migrations): everything before a
// rollback marker, without psql meta-commands such as pg_dump's \restrict.
// Offsets are kept (meta-commands are blanked, not removed), so positions
// still name the user's lines.
func applied(sources []Source) []Source {
	out := make([]Source, len(sources))
	for i, src := range sources {
		data := src.Data
		if loc := rollbackMarker.FindIndex(data); loc != nil {
			data = data[:loc[0]]
		}
		if psqlMetaCommand.Match(data) {
			data = psqlMetaCommand.ReplaceAllFunc(bytes.Clone(data), func(line []byte) []byte {
				return bytes.Repeat([]byte(" "), len(line))
			})
		}
		out[i] = Source{Path: src.Path, Data: data}
	}
	return out
}

var (
	// rollbackMarker starts the down half of goose, sql-migrate, tern and
	// dbmate migrations.
	rollbackMarker = regexp.MustCompile(`(?im)^(-- \+goose down|-- \+migrate down|---- create above / drop below ----|-- migrate:down)`)
	// psqlMetaCommand is a line psql interprets itself (\restrict KEY,
	// \connect db), not SQL.
	psqlMetaCommand = regexp.MustCompile(`(?m)^\\[A-Za-z!?;][^\n]*$`)
)
