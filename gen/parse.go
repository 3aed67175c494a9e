package gen

import "fmt"

// ParseSchema parses the schema files in order, as one database would see
// them executed, with the real parser for engine.
func ParseSchema(engine Engine, sources []Source) (*Schema, error) {
	b := newBuilder(engine)
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
