package lease

import (
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// A transaction that locks a row, reads it again and gives up when it has
// moved makes a claim in the store. A worker that settles orders under a
// redsync lock does this:
//
//	err := db.Transaction(func(tx *gorm.DB) error {
//		var o Order
//		err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(&o, id).Error
//		if err != nil {
//			return err
//		}
//		if o.Status != StatusPending {
//			return nil                   // settled by another holder: give up
//		}
//		tx.Model(&Account{}).Where("id = ?", o.Account).Update("balance", gorm.Expr("balance + ?", o.Amount))
//		return tx.Model(&o).Update("status", StatusSettled).Error
//	})
//
// The row lock orders the holders, stale or current: the second to take it
// waits until the first commits, then reads the status the first moved
// and gives up. A holder paused past its lease settles the order only if
// no one else has, and then the next holder's re-check gives up: the
// store rejects the loser, as a fence would. Precisely, a write is fenced
// by a row claim when
//
//   - the read runs in a transaction: a func literal a transaction runner
//     runs (casfence.go), through the literal's parameter, or through a
//     transaction value (database/sql's and sqlx's *Tx, pgx's and bun's
//     Tx, the *gorm.DB that Begin returns);
//   - it locks what it reads: SQL text with FOR UPDATE (FOR NO KEY UPDATE,
//     FOR SHARE, LOCK IN SHARE MODE: two shared locks deadlock at the
//     update, and the loser rolls back), or a GORM finder (First, Take,
//     Last, Find, Scan) chained after Clauses(clause.Locking{...});
//   - an if decides on a column it read (a field of the struct it fills,
//     named as GORM or sqlx name columns; a variable its Scan fills, named
//     by the select list), compared with a constant or taken as a bool,
//     and one branch gives up: it writes nothing before it returns or
//     comes back to the if (a loop's continue). A bound (if a.Pending <
//     amount) is no re-check: the next holder finds enough left too;
//   - on the other branch, every path to a return of no evident error
//     moves that column through the same transaction: an UPDATE of the
//     locked table that assigns it, a DELETE of the table, or GORM's Save
//     of the struct read after the field was assigned. The next holder's
//     re-check reads what this one moved; a transaction that moves
//     nothing it checked serializes the holders but lets each do the work
//     again;
//   - the write goes through the same transaction, and is reached only
//     through that other branch.
//
// Writes before the re-check, on paths around it, or in a transaction
// that never re-checks (it locks the row to update it from what it read
// before, as balance's return_service.go:168 in the real-world set) stay
// judged. The update must be the function's own, by SQL text or a GORM
// chain; one made in a helper is not seen.

// rowTx are the packages whose type Tx is a transaction.
var rowTx = []string{"database/sql", "github.com/jmoiron/sqlx", "github.com/jackc/pgx", "github.com/uptrace/bun"}

// A lockedRead is a locking read made in a transaction.
type lockedRead struct {
	call    *ssa.Call
	tx      ssa.Value   // the transaction it goes through
	table   any         // rowTable's key of the table it locks
	dests   []ssa.Value // where it stores what it read
	columns []string    // its select list (sqlscan's LockedColumns)
	gorm    bool        // a GORM finder: struct fields name columns as GORM does
}

// A rowClaim is a re-check of a row a function locked: the edges taken
// when the row was still to claim, in the transaction it was locked in.
type rowClaim struct {
	tx    ssa.Value
	won   map[edge]bool
	where token.Pos // the locking read
}

// rowClaimFenced returns the row claim that fences w, or "": w goes
// through the claim's transaction and is reached only by its won edges.
func (b *builder) rowClaimFenced(w *Write) string {
	for _, c := range b.rowClaimsOf(w.Fn) {
		if onHandle(w.Call.Common(), c.tx) && !reachesAvoiding(w.Fn, w.Call.Block(), c.won) {
			return fmt.Sprintf("the re-check of the row it locks (%s)", b.shortPos(c.where))
		}
	}
	return ""
}

// rowClaimsOf returns fn's row claims.
func (b *builder) rowClaimsOf(fn *ssa.Function) []rowClaim {
	if c, ok := b.rowClaims[fn]; ok && c.writes == len(b.model.Writes) {
		return c.claims // the writes they were judged by have not grown
	}
	var claims []rowClaim
	for _, read := range b.lockedReads(fn) {
		c := rowClaim{tx: read.tx, won: make(map[edge]bool), where: read.call.Pos()}
		for _, rc := range rechecks(read) {
			if won, ok := b.claimWon(fn, rc, read); ok {
				c.won[won] = true
			}
		}
		if len(c.won) > 0 {
			claims = append(claims, c)
		}
	}
	if b.rowClaims == nil {
		b.rowClaims = make(map[*ssa.Function]rowClaims)
	}
	b.rowClaims[fn] = rowClaims{len(b.model.Writes), claims}
	return claims
}

// rowClaims caches a function's row claims, as judged by the writes the
// model had then (deriveWriteFacts adds more each round).
type rowClaims struct {
	writes int
	claims []rowClaim
}

// onHandle reports whether the call c goes through the transaction tx: as
// the root of its receiver, or passed to a helper.
func onHandle(c *ssa.CallCommon, tx ssa.Value) bool {
	return handleRoot(c) == tx || slices.ContainsFunc(callArgs(c), func(a ssa.Value) bool { return unwrap(a) == tx })
}

// lockedReads returns fn's locking reads made in a transaction.
func (b *builder) lockedReads(fn *ssa.Function) []lockedRead {
	var reads []lockedRead
	inTx := b.txClosure(fn)
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !readerName(calleeName(call.Common())) {
				continue
			}
			tx := handleRoot(call.Common())
			if !txHandle(tx, fn, inTx) {
				continue
			}
			if read, ok := b.lockingRead(call); ok {
				read.tx = tx
				reads = append(reads, read)
			}
		}
	}
	return reads
}

// readerName reports whether a method of this name may send a SELECT and
// store what it read: a GORM finder, database/sql's and pgx's Query
// family, sqlx's Get and Select.
func readerName(name string) bool {
	return slices.Contains(gormFinders, name) || slices.Contains(textReaders, name)
}

// textReaders are the methods that send a query's text and store what it
// read, there or in the Scan of their result.
var textReaders = []string{
	"Query", "QueryContext", "QueryRow", "QueryRowContext", // database/sql, pgx
	"Queryx", "QueryxContext", "QueryRowx", "QueryRowxContext", "Get", "GetContext", "Select", "SelectContext", // sqlx
}

// lockingRead reads call as a locking read: the table it locks and the
// pointers it stores into.
func (b *builder) lockingRead(call *ssa.Call) (lockedRead, bool) {
	c := call.Common()
	var texts []sqlText
	ok := false
	fn := calleeFunc(c)
	isGorm := fn != nil && isGormDB(recvType(fn))
	if isGorm {
		texts, ok = b.foldTexts(func(f *folder) string { s, _ := f.gormLockingRead(call, 0); return s })
	} else {
		for _, a := range callArgs(c) {
			if isString(a.Type()) {
				if texts, ok = b.sqlTexts(a); ok {
					break
				}
			}
		}
	}
	if !ok {
		return lockedRead{}, false
	}
	read := lockedRead{call: call, dests: readDests(call), gorm: isGorm}
	for i, text := range texts {
		script := b.parseSQL(text.text, SQL)
		if script.Unknown || len(script.Statements) != 1 || !script.Statements[0].ForUpdate {
			return lockedRead{}, false
		}
		st := &script.Statements[0]
		t := rowTable(st.Locked, st.LockedHole, text)
		if t == nil || i > 0 && (t != read.table || !slices.Equal(st.LockedColumns, read.columns)) {
			return lockedRead{}, false
		}
		read.table, read.columns = t, st.LockedColumns
	}
	return read, true
}

// rowTable returns what names a table in text: its unqualified name, lower
// case, or the Go value of the hole that names it alone; nil when neither
// is known.
func rowTable(name string, hole sqlscan.Param, text sqlText) any {
	if hole.Index > 0 {
		if v := text.holeValue(hole); v != nil {
			return unwrap(v)
		}
		return nil
	}
	if name == "" || strings.Contains(name, "?") {
		return nil
	}
	return strings.ToLower(name[strings.LastIndex(name, ".")+1:])
}

// readDests returns the pointers a read stores into: the pointer
// arguments of a GORM finder (First(&o)) or of sqlx's Get and Select, and
// those of a Scan of its result (QueryRow(...).Scan(&status)).
func readDests(call *ssa.Call) []ssa.Value {
	var dests []ssa.Value
	var add func(args []ssa.Value)
	add = func(args []ssa.Value) {
		for _, a := range args {
			if elems, ok := variadic(a); ok && isSlice(a.Type()) {
				add(elems)
				continue
			}
			if a = unwrap(a); isPointer(a.Type()) {
				dests = append(dests, a)
			}
		}
	}
	if name := calleeName(call.Common()); slices.Contains(gormFinders, name) || strings.HasPrefix(name, "Get") || strings.HasPrefix(name, "Select") {
		add(callArgs(call.Common())) // First(&o), Get(&o, ...): the query's own arguments are values
	}
	for _, ref := range referrers(call) {
		if scan, ok := ref.(*ssa.Call); ok && calleeName(scan.Common()) == "Scan" && callRecv(scan.Common()) == call {
			add(callArgs(scan.Common()))
		}
	}
	return dests
}

// isSlice reports whether t is a slice type.
func isSlice(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

// handleRoot returns the database handle a call goes through: the
// receiver, back through a GORM chain to where the *gorm.DB came from,
// and from an embedded handle (sqlx's Tx embeds *sql.Tx) to its holder.
func handleRoot(c *ssa.CallCommon) ssa.Value {
	v := callRecv(c)
	for i := 0; v != nil && i < 64; i++ {
		if holder := embeddingHolder(v); holder != nil {
			v = holder
			continue
		}
		p := producer(v)
		if p == nil {
			break
		}
		fn := calleeFunc(p.Common())
		if fn == nil || !isGormDB(recvType(fn)) || fn.Name() == "Begin" {
			break
		}
		v = callRecv(p.Common())
	}
	return v
}

// embeddingHolder returns the struct pointer whose embedded field v is
// loaded from, or nil.
func embeddingHolder(v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	st, ok := pointedStruct(fa.X.Type())
	if !ok || !st.Field(fa.Field).Anonymous() {
		return nil
	}
	return fa.X
}

// typeparams returns the struct t points to.
func pointedStruct(t types.Type) (*types.Struct, bool) {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return nil, false
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	return st, ok
}

// txHandle reports whether root, the handle of a read in fn, is a
// transaction: a parameter of fn when fn is a transaction runner's
// literal (inTx), a value of a transaction type, or what a Begin returned.
func txHandle(root ssa.Value, fn *ssa.Function, inTx bool) bool {
	if root == nil {
		return false
	}
	if p, ok := root.(*ssa.Parameter); ok && inTx && p.Parent() == fn {
		return true
	}
	if typeName(root.Type()) == "Tx" && slices.ContainsFunc(rowTx, func(pkg string) bool {
		return strings.HasPrefix(normalizePath(pkgPathOf(root.Type())), pkg)
	}) {
		return true
	}
	if p := producer(root); p != nil {
		return strings.HasPrefix(calleeName(p.Common()), "Begin")
	}
	return false
}

// A recheck is an if that decides on a column of the row a locking read
// returned, compared with a constant (status != 'pending', a bool flag):
// the state a claim moves. A bound (balance < amount) is no recheck: the
// next holder finds enough left too, and takes again.
type recheck struct {
	br     *ssa.If
	column string         // the column, lower case
	field  *ssa.FieldAddr // the struct field loaded, or nil for a scalar
}

// rechecks returns the rechecks of what read stored, made after it.
func rechecks(read lockedRead) []recheck {
	var out []recheck
	for i, d := range read.dests {
		if col := read.scanColumn(i); col != "" {
			for _, br := range stateBranches(d, read.call) {
				out = append(out, recheck{br, col, nil})
			}
		}
		for _, ref := range referrers(d) {
			if fa, ok := ref.(*ssa.FieldAddr); ok {
				if col := read.fieldColumn(fa); col != "" {
					for _, br := range stateBranches(fa, read.call) {
						out = append(out, recheck{br, col, fa})
					}
				}
			}
		}
	}
	return out
}

// fieldColumn names the column a field of the struct read fills, as GORM
// names it (its column tag, or the field's name in snake case) or as sqlx
// does (its db tag, or the name in lower case); "" when the select list
// leaves it out.
func (read lockedRead) fieldColumn(fa *ssa.FieldAddr) string {
	st, ok := pointedStruct(fa.X.Type())
	if !ok {
		return ""
	}
	field, tag := st.Field(fa.Field), st.Tag(fa.Field)
	col := ""
	if read.gorm {
		if col, _ = gormColumn(tag); col == "" {
			col = snake(field.Name())
		}
	} else if col = strings.Split(reflect.StructTag(tag).Get("db"), ",")[0]; col == "" {
		col = strings.ToLower(field.Name())
	}
	col = strings.ToLower(col)
	if len(read.columns) > 0 && !slices.Contains(read.columns, col) && !slices.Contains(read.columns, "") {
		return "" // selected out: not what the row holds
	}
	return col
}

// scanColumn names the column of the select list the i-th pointer read
// stored into holds, or "".
func (read lockedRead) scanColumn(i int) string {
	if read.gorm || len(read.dests) != len(read.columns) || read.columns[i] == "" {
		return ""
	}
	return strings.ToLower(read.columns[i])
}

// stateBranches returns the ifs whose condition is a load of addr, made
// after call, compared with a constant (== or !=) or taken as a bool, and
// negated any number of times.
func stateBranches(addr ssa.Value, call *ssa.Call) []*ssa.If {
	var ifs []*ssa.If
	for _, ref := range referrers(addr) {
		load, ok := ref.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || !after(load, call) {
			continue
		}
		if isBool(load) {
			ifs = append(ifs, branchesOn(load)...)
		}
		for _, use := range referrers(load) {
			if cmp, ok := use.(*ssa.BinOp); ok && (cmp.Op == token.EQL || cmp.Op == token.NEQ) && (isConst(cmp.X) || isConst(cmp.Y)) {
				ifs = append(ifs, branchesOn(cmp)...)
			}
		}
	}
	return ifs
}

// claimWon returns the edge of br that keeps the claim, when the other
// gives up and every path on from it updates the table read locked.
func (b *builder) claimWon(fn *ssa.Function, rc recheck, read lockedRead) (edge, bool) {
	blk := rc.br.Block()
	won, ok := goesOnEdge(blk, b.writeBlocks(fn))
	if !ok {
		return edge{}, false
	}
	if !b.movesState(fn, blk.Succs[won], read, rc) {
		return edge{}, false
	}
	return edge{blk, won}, true
}

// writeBlocks returns the blocks of fn that hold a write other than a
// lease's own.
func (b *builder) writeBlocks(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	blocks := make(map[*ssa.BasicBlock]bool)
	for _, w := range b.model.Writes {
		if w.Fn == fn && w.Call != nil && !w.LockImpl {
			blocks[w.Call.Block()] = true
		}
	}
	return blocks
}

// goesOnEdge returns the successor of blk, a block that ends in an if,
// that goes on to write when the other gives up (reaches no block of
// writes before it meets blk again); false when both or neither do.
func goesOnEdge(blk *ssa.BasicBlock, writes map[*ssa.BasicBlock]bool) (int, bool) {
	gives0, gives1 := givesUp(blk.Succs[0], blk, writes), givesUp(blk.Succs[1], blk, writes)
	if gives0 == gives1 {
		return 0, false
	}
	if gives0 {
		return 1, true
	}
	return 0, true
}

// givesUp reports whether no block of writes is reached from start before
// the branch at stop is met again.
func givesUp(start, stop *ssa.BasicBlock, writes map[*ssa.BasicBlock]bool) bool {
	seen := map[*ssa.BasicBlock]bool{stop: true}
	work := []*ssa.BasicBlock{start}
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[blk] {
			continue
		}
		seen[blk] = true
		if writes[blk] {
			return false
		}
		work = append(work, blk.Succs...)
	}
	return true
}

// movesState reports whether every path from start to a return of fn
// passes a write, in read's transaction, that moves the state rc checks:
// an UPDATE of the table read locked that assigns the column, GORM's Save
// of the struct read filled after the field was assigned, or a DELETE of
// the table. A return of an error evidently not nil rolls the transaction
// back, and does not count.
func (b *builder) movesState(fn *ssa.Function, start *ssa.BasicBlock, read lockedRead, rc recheck) bool {
	moves := make(map[*ssa.BasicBlock]bool)
	for _, w := range b.model.Writes {
		if w.Fn == fn && w.Call != nil && onHandle(w.Call.Common(), read.tx) && movesColumn(w, read, rc) {
			moves[w.Call.Block()] = true
		}
	}
	if len(moves) == 0 {
		return false
	}
	seen := make(map[*ssa.BasicBlock]bool)
	work := []*ssa.BasicBlock{start}
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[blk] || moves[blk] {
			continue
		}
		seen[blk] = true
		if ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok && !b.errNotNil(ret) {
			return false // commits without having moved the row
		}
		work = append(work, blk.Succs...)
	}
	return true
}

// movesColumn reports whether w moves the column rc checks in the table
// read locked.
func movesColumn(w *Write, read lockedRead, rc recheck) bool {
	for _, u := range w.updates {
		if u.table == read.table && (u.delete || slices.Contains(u.columns, rc.column)) {
			return true
		}
	}
	return rc.field != nil && calleeName(w.Call.Common()) == "Save" && unwrap(arg(w.Call.Common(), 0)) == rc.field.X && storesField(rc.field)
}

// storesField reports whether the function stores into the field fa
// addresses, through any address of the same field of the same struct.
func storesField(fa *ssa.FieldAddr) bool {
	for _, ref := range referrers(fa.X) {
		other, ok := ref.(*ssa.FieldAddr)
		if !ok || other.Field != fa.Field {
			continue
		}
		for _, use := range referrers(other) {
			if st, ok := use.(*ssa.Store); ok && st.Addr == other {
				return true
			}
		}
	}
	return false
}

// A tableUpdate is an UPDATE or a DELETE a write makes.
type tableUpdate struct {
	table   any      // by rowTable
	columns []string // what the UPDATE assigns, lower case
	delete  bool
}

// tableUpdates returns the UPDATE and DELETE statements among writes.
func tableUpdates(writes []*sqlscan.Statement, text sqlText) []tableUpdate {
	var out []tableUpdate
	for _, st := range writes {
		if st.Verb != "UPDATE" && st.Verb != "DELETE" {
			continue
		}
		t := rowTable(st.Table, st.TableHole, text)
		if t == nil {
			continue
		}
		u := tableUpdate{table: t, delete: st.Verb == "DELETE"}
		for _, c := range st.Assigned {
			u.columns = append(u.columns, strings.ToLower(c))
		}
		out = append(out, u)
	}
	return out
}
