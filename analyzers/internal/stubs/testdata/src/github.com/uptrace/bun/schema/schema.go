// Package schema is a stub of github.com/uptrace/bun/schema v1.3.0 for
// analysistest fixtures: real signatures, no behaviour.
package schema

type BaseModel struct{}
