// Package pgconn is a stub of github.com/jackc/pgx/v5/pgconn v5.13.0.
package pgconn

type PgConn struct {
	pid uint32
}

func (pgConn *PgConn) PID() uint32 { return pgConn.pid }

type CommandTag struct {
	s string
}

func NewCommandTag(s string) CommandTag { return CommandTag{s: s} }

func (ct CommandTag) RowsAffected() int64 { panic("stub") }
func (ct CommandTag) String() string      { return ct.s }
func (ct CommandTag) Insert() bool        { panic("stub") }
func (ct CommandTag) Update() bool        { panic("stub") }
func (ct CommandTag) Delete() bool        { panic("stub") }
func (ct CommandTag) Select() bool        { panic("stub") }

type FieldDescription struct {
	Name                 string
	TableOID             uint32
	TableAttributeNumber uint16
	DataTypeOID          uint32
	DataTypeSize         int16
	TypeModifier         int32
	Format               int16
}

type StatementDescription struct {
	Name      string
	SQL       string
	ParamOIDs []uint32
	Fields    []FieldDescription
}
