package lease

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// A MongoDB write (mongo-driver's Collection methods) is judged as the SQL
// statement it amounts to, by the same rules as SQL text (sqlidem.go and
// the fence in the WHERE clause), so a MongoDB fence means what a SQL one
// means:
//
//	coll.UpdateOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": tok}},
//		bson.M{"$set": bson.M{"body": b, "fence": tok}})
//
// is written out as "UPDATE docs SET body = <b>, fence = <tok> WHERE _id =
// <id> AND fence < <tok>". The filter and the update are read where they
// are composite literals of the caller (bson.M, bson.D, primitive.M,
// map[string]any): $lt, $lte, $eq, $ne, $gt, $gte, $in and $and in the
// filter; $set, $inc, $unset, $currentDate, $push, $addToSet, $pull and
// $setOnInsert in the update. A filter built elsewhere (a parameter, a
// helper's result) or holding an operator fencelint does not read leaves
// the filter unseen, like a WHERE clause built at run time. A replacement
// (ReplaceOne, FindOneAndReplace) or an update built elsewhere sets the
// whole document. An upsert (the options' SetUpsert(true) or Upsert
// field) whose update only has $setOnInsert is an insert-if-absent:
// it never changes a document that is there. InsertOne and InsertMany
// add documents (an INSERT); BulkWrite's models are not read.
//
// A fence or version fences only when the holder learns that it lost: the
// result's MatchedCount, ModifiedCount, UpsertedCount or DeletedCount read
// (or the result handed on), or, for FindOneAndUpdate, FindOneAndReplace
// and FindOneAndDelete, the SingleResult's Err or Decode (ErrNoDocuments
// when nothing matched).

// pkgMongo is mongo-driver's mongo package, v1 and v2 (its /v2 removed).
const pkgMongo = "go.mongodb.org/mongo-driver/mongo"

// mongoWrites lists the Collection methods that write.
func mongoWrites() []string {
	return []string{
		"InsertOne", "InsertMany", "UpdateOne", "UpdateMany", "UpdateByID", "ReplaceOne",
		"DeleteOne", "DeleteMany", "FindOneAndUpdate", "FindOneAndReplace", "FindOneAndDelete", "BulkWrite",
	}
}

// mongoCatalog returns the catalog rows of mongo-driver.
func mongoCatalog() []API {
	var c []API
	for _, name := range mongoWrites() {
		c = append(c, API{Pkg: pkgMongo, Recv: "Collection", Name: name, Role: RoleWrite, System: MongoDB, Fence: MongoFilter})
	}
	return c
}

// mongoAdvice says how to fence a MongoDB write.
const mongoAdvice = `fence it: add "fence": bson.M{"$lt": token} to the filter (and $set the fence to the token) ` +
	"with the lease's token, and abort when MatchedCount is 0 (ErrNoDocuments for FindOneAnd*)"

// mongoWrite judges w, a call of a catalogued Collection method, as the SQL
// statement it amounts to.
func (b *builder) mongoWrite(w *Write, call ssa.CallInstruction, api *API) *Write {
	c := call.Common()
	d := &mongoStmt{table: mongoCollection(callRecv(c))}
	switch api.Name {
	case "InsertOne":
		d.insert(arg(c, 1))
	case "InsertMany":
		d.insert(nil)
	case "UpdateOne", "UpdateMany", "FindOneAndUpdate":
		d.where(arg(c, 1))
		d.update(arg(c, 2), mongoUpsert(arg(c, 3)))
	case "UpdateByID":
		d.conds = append(d.conds, `"_id" = `+d.value(arg(c, 1)))
		d.update(arg(c, 2), mongoUpsert(arg(c, 3)))
	case "ReplaceOne", "FindOneAndReplace":
		d.where(arg(c, 1))
		d.sets = append(d.sets, "document = "+d.hole(arg(c, 2)))
	case "DeleteOne", "DeleteMany", "FindOneAndDelete":
		d.verb = "DELETE FROM"
		d.where(arg(c, 1))
	default: // BulkWrite
		d.unseen = true
		d.sets = append(d.sets, "document = "+d.hole(arg(c, 1)))
	}
	if d.verb == "" && len(d.sets) == 0 && !d.onlyInsert {
		return nil // $setOnInsert without an upsert: changes nothing
	}
	text := d.sqlText()
	alt := *w
	r := b.sqlTextWrite(&alt, call, text, -1)
	if r == nil {
		return nil
	}
	*w = *r
	if !w.Fenced && w.Unseen == "" && d.recount() {
		w.Fenced, w.FencedBy = true, "a recount: derived from other documents"
		return w
	}
	if w.Unseen != "" {
		w.Unseen = "filter (built out of sight)"
		if api.Name == "BulkWrite" {
			w.Unseen = "write models (BulkWrite's models are not read)"
		}
	}
	// A fence relies on the outcome: the counts of the result, or the
	// SingleResult's error. A state transition needs none read.
	if w.Fenced && w.RowsCAS && w.countFences {
		if !mongoOutcomeRead(call) {
			w.Fenced, w.Unchecked, w.Outcome = false, true, "MatchedCount"
			if strings.HasPrefix(api.Name, "FindOneAnd") {
				w.Outcome = "error (ErrNoDocuments when nothing matches)"
			} else if strings.HasPrefix(api.Name, "Delete") {
				w.Outcome = "DeletedCount"
			}
		}
	}
	w.RowsCAS = false // its outcome is a count field or an error, not RowsAffected (casfence.go)
	if !w.Fenced && (api.Name == "InsertOne" || api.Name == "InsertMany") {
		if at, ok := b.uniqueIndexed(callRecv(c)); ok {
			w.Fenced, w.FencedBy = true, fmt.Sprintf("an insert into a collection with a unique index (line %d): a duplicate fails and overwrites nothing", b.pass.Fset.Position(at).Line)
		}
	}
	return w
}

// mongoCollection names the collection coll is, for diagnostics: the
// constant given to Database.Collection, else the variable or field that
// holds it.
func mongoCollection(coll ssa.Value) string {
	switch x := unwrap(coll).(type) {
	case *ssa.Call:
		if f := calleeFunc(x.Common()); f != nil && f.Name() == "Collection" {
			if s, ok := constString(arg(x.Common(), 0)); ok && sqlName(s) {
				return s
			}
		}
	case *ssa.UnOp:
		switch y := x.X.(type) {
		case *ssa.Global:
			return y.Name()
		case *ssa.FieldAddr:
			return fieldName(y.X.Type(), y.Field)
		}
	}
	return "collection"
}

// sqlName reports whether s can stand as a table name in SQL text.
func sqlName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// A mongoStmt is a MongoDB write written out as SQL.
type mongoStmt struct {
	verb   string // "UPDATE" (the zero value), "DELETE FROM" or "INSERT INTO"
	table  string
	cols   []string // an INSERT's columns
	vals   []string // and their values
	sets   []string // an UPDATE's assignments, "col = value"
	conds  []string // ANDed
	holes  []hole
	unseen bool // a filter condition out of sight
	// onlyInsert marks an upsert whose update only sets fields on insert.
	onlyInsert bool
	// setValues holds the values the update's $set gives, when $set is all
	// it does (recount).
	setValues []ssa.Value
	otherOps  bool
}

// hole records v as a run-time value and returns its marker.
func (d *mongoStmt) hole(v ssa.Value) string {
	d.holes = append(d.holes, hole{value: v, text: v == nil})
	return sqlscan.HoleMarker(len(d.holes))
}

// value writes out v, a field's value: a literal for a constant number,
// string or bool, else a hole that remembers it.
func (d *mongoStmt) value(v ssa.Value) string {
	if c, ok := unwrap(v).(*ssa.Const); ok && c.Value != nil {
		switch c.Value.Kind() {
		case constant.Int, constant.Float:
			return c.Value.ExactString()
		case constant.Bool:
			return strings.ToUpper(c.Value.String())
		case constant.String:
			return "'" + strings.ReplaceAll(constant.StringVal(c.Value), "'", "''") + "'"
		}
	}
	if c, ok := unwrap(v).(*ssa.Const); ok && c.IsNil() {
		return "NULL"
	}
	return d.hole(v)
}

// column quotes a document field's name (a dotted path, "_id") as a SQL
// identifier.
func column(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// insert writes out an insert of doc, a document literal, or of documents
// out of sight (nil or not a literal).
func (d *mongoStmt) insert(doc ssa.Value) {
	d.verb = "INSERT INTO"
	fields, ok := mongoFields(doc)
	if !ok || len(fields) == 0 {
		d.cols, d.vals = []string{"document"}, []string{d.hole(doc)}
		return
	}
	for _, f := range fields {
		d.cols = append(d.cols, column(f.key))
		d.vals = append(d.vals, d.value(f.value))
	}
}

// where writes out a filter document as ANDed conditions.
func (d *mongoStmt) where(filter ssa.Value) {
	fields, ok := mongoFields(filter)
	if !ok {
		d.unseen = true
		return
	}
	for _, f := range fields {
		d.cond(f)
	}
}

// cond writes out one field of a filter.
func (d *mongoStmt) cond(f mongoField) {
	if f.key == "$and" {
		elems, ok := literalElems(f.value)
		if !ok {
			d.unseen = true
			return
		}
		for _, e := range elems {
			d.where(e)
		}
		return
	}
	if strings.HasPrefix(f.key, "$") { // $or, $nor, $expr, $where: not read
		d.unseen = true
		return
	}
	ops, ok := mongoFields(f.value)
	if !ok || len(ops) == 0 || !strings.HasPrefix(ops[0].key, "$") {
		d.conds = append(d.conds, column(f.key)+" = "+d.value(f.value)) // an equality (or a whole sub-document)
		return
	}
	sqlOps := map[string]string{"$lt": "<", "$lte": "<=", "$gt": ">", "$gte": ">=", "$eq": "=", "$ne": "<>"}
	for _, op := range ops {
		switch {
		case sqlOps[op.key] != "":
			d.conds = append(d.conds, column(f.key)+" "+sqlOps[op.key]+" "+d.value(op.value))
		case op.key == "$in":
			d.conds = append(d.conds, column(f.key)+" IN ("+d.hole(op.value)+")")
		case op.key == "$exists":
			d.conds = append(d.conds, column(f.key)+" IS NOT NULL")
		default:
			d.unseen = true
		}
	}
}

// update writes out an update document's assignments; upsert says the
// options ask for one.
func (d *mongoStmt) update(upd ssa.Value, upsert bool) {
	ops, ok := mongoFields(upd)
	if !ok || len(ops) == 0 || !strings.HasPrefix(ops[0].key, "$") {
		d.sets = append(d.sets, "document = "+d.hole(upd)) // a pipeline, or built out of sight
		return
	}
	onlyInsert := true
	for _, op := range ops {
		if op.key != "$setOnInsert" {
			onlyInsert = false
		}
		if op.key != "$set" {
			d.otherOps = true
		}
		fields, ok := mongoFields(op.value)
		if !ok {
			if op.key != "$setOnInsert" {
				d.sets = append(d.sets, "document = "+d.hole(op.value))
			}
			continue
		}
		for _, f := range fields {
			col := column(f.key)
			switch op.key {
			case "$set":
				d.sets = append(d.sets, col+" = "+d.value(f.value))
				d.setValues = append(d.setValues, f.value)
			case "$inc", "$push", "$addToSet":
				d.sets = append(d.sets, col+" = "+col+" + "+d.value(f.value))
			case "$pull", "$pullAll":
				d.sets = append(d.sets, col+" = "+col+" - "+d.value(f.value))
			case "$unset":
				d.sets = append(d.sets, col+" = NULL")
			case "$currentDate":
				d.sets = append(d.sets, col+" = now()")
			case "$setOnInsert":
				d.cols = append(d.cols, col)
				d.vals = append(d.vals, d.value(f.value))
			default: // $mul, $min, $max, $rename, ...
				d.sets = append(d.sets, col+" = "+d.hole(f.value))
			}
		}
	}
	d.onlyInsert = upsert && onlyInsert
}

// recount reports whether the update only $sets counts the function read
// from the store (Collection.CountDocuments, EstimatedDocumentCount): the
// Go form of an UPDATE derived from other rows (sqlidem.go). What it
// writes is recomputed from the documents counted, not carried from an
// earlier state of the one it writes: a stale holder's count is one a
// slow single run writes too, and the next run counts again.
func (d *mongoStmt) recount() bool {
	if d.otherOps || len(d.setValues) == 0 || d.unseen {
		return false
	}
	for _, v := range d.setValues {
		if !storeCount(v) {
			return false
		}
	}
	return true
}

// storeCount reports whether v is a count a MongoDB collection returned,
// converted or not.
func storeCount(v ssa.Value) bool {
	for range 4 {
		switch x := unwrap(v).(type) {
		case *ssa.Convert:
			v = x.X
			continue
		case *ssa.Extract:
			c, ok := x.Tuple.(*ssa.Call)
			if !ok || x.Index != 0 {
				return false
			}
			f := calleeFunc(c.Common())
			return f != nil && f.Pkg() != nil && CanonicalPath(f.Pkg().Path()) == pkgMongo &&
				(f.Name() == "CountDocuments" || f.Name() == "EstimatedDocumentCount" || f.Name() == "Count")
		}
		return false
	}
	return false
}

// sqlText writes the statement out.
func (d *mongoStmt) sqlText() sqlText {
	var s strings.Builder
	switch {
	case d.onlyInsert && len(d.cols) > 0:
		// Matched documents are left alone; none matched inserts the filter's
		// equalities and $setOnInsert's fields.
		s.WriteString("INSERT INTO " + d.table + " (" + strings.Join(d.cols, ", ") + ") VALUES (" + strings.Join(d.vals, ", ") + ") ON CONFLICT DO NOTHING")
		return sqlText{text: s.String(), holes: d.holes}
	case d.verb == "INSERT INTO":
		s.WriteString("INSERT INTO " + d.table + " (" + strings.Join(d.cols, ", ") + ") VALUES (" + strings.Join(d.vals, ", ") + ")")
		return sqlText{text: s.String(), holes: d.holes}
	case d.verb == "DELETE FROM":
		s.WriteString("DELETE FROM " + d.table)
	default:
		s.WriteString("UPDATE " + d.table + " SET " + strings.Join(d.sets, ", "))
	}
	conds := d.conds
	if d.unseen {
		conds = append(conds, d.hole(nil)) // a text hole: a condition out of sight
	}
	if len(conds) > 0 {
		s.WriteString(" WHERE " + strings.Join(conds, " AND "))
	}
	return sqlText{text: s.String(), holes: d.holes}
}

// A mongoField is one key and value of a document literal.
type mongoField struct {
	key   string
	value ssa.Value
}

// mongoFields returns the fields of v, a document literal of the caller's:
// a map literal (bson.M, primitive.M, map[string]any) with constant keys,
// or a slice literal of key-value structs (bson.D of bson.E). ok is false
// for anything else (a struct, a variable, a helper's result).
func mongoFields(v ssa.Value) ([]mongoField, bool) {
	if v == nil {
		return nil, false
	}
	x := unwrap(v)
	if c, ok := x.(*ssa.Const); ok && c.IsNil() {
		return nil, true // bson.M(nil), bson.D(nil): an empty document
	}
	switch x := x.(type) {
	case *ssa.MakeMap:
		return mapFields(x)
	case *ssa.Slice:
		return docFields(x)
	}
	return nil, false
}

// mapFields returns the entries a map literal is given, when its keys are
// constant strings and nothing but its literal's updates changes it.
func mapFields(m *ssa.MakeMap) ([]mongoField, bool) {
	var fields []mongoField
	for _, ref := range referrers(m) {
		switch r := ref.(type) {
		case *ssa.MapUpdate:
			key, ok := constString(r.Key)
			if !ok {
				return nil, false
			}
			fields = append(fields, mongoField{key, r.Value})
		case *ssa.MakeInterface, *ssa.ChangeType, *ssa.DebugRef, *ssa.Lookup, *ssa.Range:
		default: // handed to code that may change it
			return nil, false
		}
	}
	slices.SortStableFunc(fields, func(a, b mongoField) int { return strings.Compare(a.key, b.key) })
	return fields, true
}

// docFields returns the elements of a bson.D literal: key-value structs
// with a constant Key.
func docFields(s *ssa.Slice) ([]mongoField, bool) {
	alloc, ok := s.X.(*ssa.Alloc)
	if !ok || s.Low != nil || s.High != nil {
		return nil, false
	}
	var fields []mongoField
	for _, ref := range referrers(alloc) {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		elem := storedFields(ia)
		for _, r := range referrers(ia) {
			if st, ok := r.(*ssa.Store); ok && st.Addr == ia {
				elem = structLiteral(st.Val) // *ia = E{...}, built in a local first
			}
		}
		if len(elem) == 0 {
			continue
		}
		key, ok := constString(elem["Key"])
		if !ok {
			return nil, false
		}
		fields = append(fields, mongoField{key, elem["Value"]})
	}
	return fields, len(fields) > 0 || arrayLen(alloc) == 0
}

// mongoUpsert reports whether opts, an update's options, ask for an
// upsert: a SetUpsert(true) in the builder chain of one of them, or an
// Upsert field set in a struct literal.
func mongoUpsert(opts ssa.Value) bool {
	elems, _ := variadic(opts)
	for _, e := range elems {
		for v := unwrap(e); v != nil; {
			call, ok := v.(*ssa.Call)
			if !ok {
				if fields := literalPaths(v); fields != nil && fields["Upsert"] != nil {
					return true
				}
				if x, ok := v.(*ssa.Alloc); ok && storedFields(x)["Upsert"] != nil {
					return true
				}
				break
			}
			f := calleeFunc(call.Common())
			if f == nil {
				break
			}
			if f.Name() == "SetUpsert" && isTrue(arg(call.Common(), 0)) {
				return true
			}
			v = unwrap(callRecv(call.Common()))
		}
	}
	return false
}

// mongoOutcomeRead reports whether the caller learns that a MongoDB write
// matched nothing: a count field of its result read, the SingleResult of a
// FindOneAnd* used (Err, Decode), or the result handed on.
func mongoOutcomeRead(call ssa.CallInstruction) bool {
	c, ok := call.(*ssa.Call)
	if !ok {
		return false
	}
	if _, tuple := c.Type().(*types.Tuple); !tuple {
		return valueRead(c) // *SingleResult
	}
	for _, ref := range referrers(c) {
		if ext, ok := ref.(*ssa.Extract); ok && ext.Index == 0 && mongoCountRead(ext, 0) {
			return true
		}
	}
	return false
}

// mongoCountRead reports whether a count field of v, a write's result, is
// read, or v is handed on to code that may read one.
func mongoCountRead(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, ref := range referrers(v) {
		switch x := ref.(type) {
		case *ssa.FieldAddr:
			if strings.HasSuffix(fieldName(x.X.Type(), x.Field), "Count") {
				return true
			}
		case *ssa.Field:
			if strings.HasSuffix(fieldName(x.X.Type(), x.Field), "Count") {
				return true
			}
		case *ssa.Return, *ssa.Store, *ssa.MakeInterface, *ssa.Send, ssa.CallInstruction:
			return true
		case *ssa.Phi:
			if mongoCountRead(x, depth+1) {
				return true
			}
		case *ssa.UnOp:
			if x.Op == token.MUL && mongoCountRead(x, depth+1) {
				return true
			}
		}
	}
	return false
}
