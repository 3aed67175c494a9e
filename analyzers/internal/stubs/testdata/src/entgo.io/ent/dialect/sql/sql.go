// Package sql is a stub of entgo.io/ent/dialect/sql: the selector and
// predicate helpers the generated client uses.
package sql

type Selector struct{ where *Predicate }

func (s *Selector) Where(p *Predicate) *Selector { s.where = p; return s }
func (s *Selector) C(column string) string       { return column }

type Predicate struct{}

func EQ(col string, value any) *Predicate  { return &Predicate{} }
func LT(col string, value any) *Predicate  { return &Predicate{} }
func GT(col string, value any) *Predicate  { return &Predicate{} }
func NEQ(col string, value any) *Predicate { return &Predicate{} }

func FieldEQ(name string, v any) func(*Selector) {
	return func(s *Selector) { s.Where(EQ(s.C(name), v)) }
}
func FieldLT(name string, v any) func(*Selector) {
	return func(s *Selector) { s.Where(LT(s.C(name), v)) }
}
func FieldGT(name string, v any) func(*Selector) {
	return func(s *Selector) { s.Where(GT(s.C(name), v)) }
}
func FieldNEQ(name string, v any) func(*Selector) {
	return func(s *Selector) { s.Where(NEQ(s.C(name), v)) }
}

// A ConflictOption configures an upsert (ent's sql/upsert feature).
type ConflictOption func(*conflict)

type conflict struct {
	doNothing bool
	columns   []string
}

func ConflictColumns(columns ...string) ConflictOption {
	return func(c *conflict) { c.columns = columns }
}
func DoNothing() ConflictOption         { return func(c *conflict) { c.doNothing = true } }
func ResolveWithIgnore() ConflictOption { return func(c *conflict) {} }
func ResolveWithNewValues() ConflictOption {
	return func(c *conflict) {}
}
