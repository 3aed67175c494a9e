package lease

import (
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// A GORM Create is written out as "INSERT INTO t (x) VALUES (<row>)"
// (sqlorm.go): the row is one value, and the columns are its fields. It is
// a create-if-absent, as an SQL INSERT is (schema.go), when its error is
// heeded and the row gives every column of a natural key of the table a
// value:
//
//	row := &table.Checkpoint{Job: job, Epoch: epoch, Total: total}
//	return db.Create(row).Error // PRIMARY KEY (job, epoch): a duplicate fails
//
// A row built in the function gives a key column the one value stored
// into its field, which must not be drawn fresh there (a new UUID, the
// current time). A row handed in is built out of sight, so its key fields
// must be of types that cannot hold a fresh identifier (time.Time, a small
// integer): a string or an int64 key may be a UUID or a snowflake ID the
// caller drew, which makes every INSERT a new row.

// gormRow returns the keySource of the row a GORM Create call inserts, or
// nil when call is not one or inserts no single struct.
func gormRow(call ssa.CallInstruction, st *sqlscan.Statement) keySource {
	fn := calleeFunc(call.Common())
	if fn == nil || !isGormDB(recvType(fn)) || fn.Name() != "Create" || len(st.Inserts) != 1 {
		return nil
	}
	v := unwrap(arg(call.Common(), 0))
	row := rowStruct(v.Type())
	if row == nil {
		return nil
	}
	alloc, _ := v.(*ssa.Alloc)
	if alloc != nil && alloc.Parent() != call.Parent() {
		alloc = nil
	}
	return gormRowKeys{row: row, alloc: alloc}
}

// gormRowKeys is the keySource of a GORM Create (gormRow).
type gormRowKeys struct {
	row   *types.Struct
	alloc *ssa.Alloc // the row, when built in the function of the call
}

func (r gormRowKeys) values(col string) ([]ssa.Value, bool) {
	name := gormColumnField(r.row, col)
	if name == "" {
		return nil, false
	}
	if r.alloc == nil {
		return []ssa.Value{nil}, !mayHoldFreshID(fieldType(r.row, name))
	}
	v := onlyFieldStore(r.alloc, name)
	if v == nil {
		return nil, false // left zero, or set more than once
	}
	return []ssa.Value{v}, true
}

// identity is never asked: a schema's natural key has no finder.
// omits is never true: the row a model inserts names every column of
// its struct, and what the model does with a nil field is not read.
func (gormRowKeys) omits(string) bool { return false }

func (gormRowKeys) identity(SchemaKey, int, ssa.Value) bool { return false }

// gormColumnField returns the name of row's field that GORM maps to col:
// the one its `gorm:"column:name"` tag names, or the one whose name GORM's
// default naming turns into col. Embedded structs are not searched.
func gormColumnField(row *types.Struct, col string) string {
	for i := range row.NumFields() {
		f := row.Field(i)
		if f.Embedded() || !f.Exported() {
			continue
		}
		name, ignored := gormColumn(row.Tag(i))
		if ignored {
			continue
		}
		if name == "" {
			name = snake(f.Name())
		}
		if strings.EqualFold(name, col) {
			return f.Name()
		}
	}
	return ""
}

// gormColumn reads a field's gorm tag: the column it names, and whether
// it keeps the field out of the table (`gorm:"-"`).
func gormColumn(tag string) (column string, ignored bool) {
	for _, o := range strings.Split(reflect.StructTag(tag).Get("gorm"), ";") {
		if o == "-" || strings.HasPrefix(o, "-:") {
			return "", true
		}
		if c, ok := strings.CutPrefix(o, "column:"); ok {
			column = c
		}
	}
	return column, false
}

// gormErrorHeeded reports whether the Error field of the *gorm.DB a GORM
// write returns is returned or compared with nil, so that a failed INSERT
// does not carry on as if it had created the row.
func gormErrorHeeded(call *ssa.Call) bool {
	for _, ref := range referrers(call) {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fieldName(fa.X.Type(), fa.Field) != "Error" {
			continue
		}
		for _, use := range referrers(fa) {
			if load, ok := use.(*ssa.UnOp); ok && load.Op == token.MUL && errorValueHeeded(load) {
				return true
			}
		}
	}
	return false
}

// errorValueHeeded reports whether the error v is returned or compared
// with nil.
func errorValueHeeded(v ssa.Value) bool {
	for _, use := range errorUses(v) {
		switch x := use.(type) {
		case *ssa.Return:
			return true
		case *ssa.BinOp:
			if (x.Op == token.EQL || x.Op == token.NEQ) && (isNilConst(x.X) || isNilConst(x.Y)) {
				return true
			}
		}
	}
	return false
}
