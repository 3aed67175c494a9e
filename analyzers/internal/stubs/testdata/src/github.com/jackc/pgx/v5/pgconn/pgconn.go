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

func (ct CommandTag) RowsAffected() (_ int64) { return }
func (ct CommandTag) String() string          { return ct.s }
func (ct CommandTag) Insert() (_ bool)        { return }
func (ct CommandTag) Update() (_ bool)        { return }
func (ct CommandTag) Delete() (_ bool)        { return }
func (ct CommandTag) Select() (_ bool)        { return }

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
