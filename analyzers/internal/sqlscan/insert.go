package sqlscan

import "strings"

// insert reads INSERT/REPLACE/UPSERT [modifiers] [INTO] table [AS alias]
// [(cols)] VALUES (...)|SELECT ...|SET c = v, ... [AS new] followed by
// ON CONFLICT ... DO NOTHING|UPDATE SET ... [WHERE ...], ON DUPLICATE KEY
// UPDATE ..., and RETURNING.
func (s *stmt) insert(i int) {
	s.st.Writes = true
	if s.st.Verb == "REPLACE" {
		s.st.Conflict = "REPLACE"
	}
	i = s.skipWords(i, "LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY")
	if s.word(i, "IGNORE") {
		s.st.Conflict = "IGNORE"
		i++
	}
	if s.word(i, "OR") {
		s.st.Conflict = orConflict(s.toks, i+1, s.hi)
		i += 2
	}
	i = s.target(s.skipWords(i, "INTO"))
	var cols []string
	if i < s.hi && s.toks[i].kind == tLParen {
		end := s.closeOf(i)
		cols = s.columnList(i+1, end)
		i = end + 1
	}
	s.notExists(i, s.hi, cols)
	i = s.source(i, cols)
	if s.word(i, "AS") && i+1 < s.hi && s.toks[i+1].isName() {
		s.rowAlias = s.toks[i+1].text
	}
	s.conflicts(i)
	s.st.Returning = s.find(i, s.hi, "RETURNING") < s.hi
}

// columnList reads a parenthesized list of column names in [lo, hi).
func (s *stmt) columnList(lo, hi int) []string {
	var cols []string
	for _, part := range s.split(lo, hi) {
		_, last, j, ok := s.name(part[0])
		if !ok || j != part[1] {
			cols = append(cols, "") // not a plain column: keep positions aligned
			continue
		}
		cols = append(cols, last)
	}
	return cols
}

// split returns the top-level comma-separated parts of [lo, hi).
func (s *stmt) split(lo, hi int) [][2]int {
	var parts [][2]int
	start := lo
	for i := lo; i < hi; {
		if s.toks[i].kind == tComma {
			parts = append(parts, [2]int{start, i})
			start = i + 1
			i++
			continue
		}
		i = s.skip(i)
	}
	if start < hi {
		parts = append(parts, [2]int{start, hi})
	}
	return parts
}

// source reads the VALUES rows or MySQL SET list of an INSERT at i, records
// what each column receives, and returns the index after the source (at ON,
// AS, RETURNING or the end).
func (s *stmt) source(i int, cols []string) int {
	s.inserted = make(map[string]value)
	end := s.find(i, s.hi, "ON", "RETURNING")
	for end < s.hi && s.word(end, "ON") && !s.word(end+1, "CONFLICT") && !s.word(end+1, "DUPLICATE") {
		end = s.find(end+1, s.hi, "ON", "RETURNING")
	}
	as := s.find(i+1, end, "AS") // MySQL's row alias: VALUES (...) AS new
	switch {
	case s.word(i, "VALUES") || s.word(i, "VALUE"):
		s.values(i+1, as, cols)
	case s.word(i, "SET"):
		for _, a := range s.assignments(i+1, as) {
			s.inserted[strings.ToLower(a.Column)] = value{param: a.Value}
			s.st.Stored = append(s.st.Stored, a)
		}
	default: // SELECT, TABLE, DEFAULT VALUES: nothing to map, no row alias
		return end
	}
	return as
}

// values reads the rows of a VALUES list in [lo, hi).
func (s *stmt) values(lo, hi int, cols []string) {
	first := true
	s.st.Inserts = make([]InsertCol, len(cols))
	for k, c := range cols {
		s.st.Inserts[k] = InsertCol{Column: c, Plain: c != ""}
	}
	for i := lo; i < hi && s.toks[i].kind == tLParen; {
		end := s.closeOf(i)
		parts := s.split(i+1, end)
		for k := len(parts); k < len(cols); k++ {
			s.st.Inserts[k].Plain = false // a short row: not read
		}
		for k, part := range parts {
			if k >= len(cols) || cols[k] == "" {
				continue
			}
			v := s.valueAt(part[0], part[1])
			s.st.Inserts[k].Values = append(s.st.Inserts[k].Values, v.param)
			if v.param.IsZero() && (!v.literal || s.nullOrDefault(part[0], part[1])) {
				s.st.Inserts[k].Plain = false
			}
			if first {
				s.inserted[strings.ToLower(cols[k])] = v
			}
			if !v.param.IsZero() {
				s.st.Stored = append(s.st.Stored, Assign{Column: cols[k], Value: v.param})
			}
		}
		first = false
		i = end + 1
		if i < hi && s.toks[i].kind == tComma {
			i++
		}
	}
}

// nullOrDefault reports whether [lo, hi) is NULL or DEFAULT.
func (s *stmt) nullOrDefault(lo, hi int) bool {
	lo, hi = s.strip(lo, hi)
	return hi-lo == 1 && (s.word(lo, "NULL") || s.word(lo, "DEFAULT"))
}

// valueAt classifies the expression in [lo, hi) as a placeholder, a
// literal (a number with its sign, a string, NULL, TRUE, FALSE, DEFAULT),
// or something else.
func (s *stmt) valueAt(lo, hi int) value {
	lo, hi = s.strip(lo, hi)
	if hi-lo == 2 && (s.toks[lo].isOp("-") || s.toks[lo].isOp("+")) && s.toks[lo+1].kind == tNumber {
		return value{literal: true}
	}
	if hi-lo != 1 {
		return value{}
	}
	switch t := &s.toks[lo]; t.kind {
	case tParam:
		return value{param: t.param()}
	case tNumber, tString:
		return value{literal: true}
	case tWord:
		return value{literal: literalWord(t)}
	}
	return value{}
}

// conflicts reads every ON CONFLICT and ON DUPLICATE KEY UPDATE clause at or
// after i.
func (s *stmt) conflicts(i int) {
	for on := s.find(i, s.hi, "ON"); on < s.hi; on = s.find(on+1, s.hi, "ON") {
		switch {
		case s.word(on+1, "CONFLICT"):
			s.onConflict(on + 2)
		case s.word(on+1, "DUPLICATE") && s.word(on+2, "KEY") && s.word(on+3, "UPDATE"):
			s.st.Conflict = "DUPLICATE KEY UPDATE"
			s.duplicateKeyUpdate(on+4, s.find(on+4, s.hi, "RETURNING"))
			s.st.Accumulates = s.accumulates(on+4, s.find(on+4, s.hi, "RETURNING"))
		}
	}
}

// onConflict reads [(target) | ON CONSTRAINT name] [WHERE pred] DO NOTHING |
// DO UPDATE SET ... [WHERE cond] starting at i.
func (s *stmt) onConflict(i int) {
	do := s.find(i, s.hi, "DO")
	if do == s.hi {
		s.unknown("ON CONFLICT without DO")
		return
	}
	if s.word(do+1, "NOTHING") {
		s.st.Conflict = "DO NOTHING"
		return
	}
	if !s.word(do+1, "UPDATE") || !s.word(do+2, "SET") {
		s.unknown("ON CONFLICT DO neither NOTHING nor UPDATE SET")
		return
	}
	s.st.Conflict = "DO UPDATE"
	end := s.find(do+3, s.hi, "WHERE", "RETURNING", "ON")
	s.st.Stored = append(s.st.Stored, s.assignments(do+3, end)...)
	s.st.Accumulates = s.accumulates(do+3, end)
	if s.word(end, "WHERE") {
		stop := s.find(end+1, s.hi, "RETURNING", "ON")
		s.st.Fences = append(s.st.Fences, s.fences(end+1, stop, "ON CONFLICT WHERE")...)
		s.st.Differs, s.st.Converges = s.differs(end+1, stop)
		s.claims(do+3, end, end+1, stop)
	}
}

// differs reads a DO UPDATE's WHERE in [lo, hi) that applies the update
// only where the row differs from what the INSERT carries: an OR of
// target.col <> EXCLUDED.col, target.col <> <the placeholder inserted
// into col>, or IS DISTINCT FROM. It returns the compared placeholders
// (inserted literals need none) and whether the whole condition is such
// an OR.
func (s *stmt) differs(lo, hi int) ([]Param, bool) {
	if s.inserted == nil || lo >= hi {
		return nil, false
	}
	var params []Param
	start := lo
	for _, at := range append(s.splitBool(lo, hi, "OR"), hi) {
		p, ok := s.differsFrom(start, at)
		if !ok {
			return nil, false
		}
		if !p.IsZero() {
			params = append(params, p)
		}
		start = at + 1
	}
	return params, true
}

// differsFrom reads one "col <> inserted value" in [lo, hi), either way
// round, and returns the inserted placeholder (zero for a literal).
func (s *stmt) differsFrom(lo, hi int) (Param, bool) {
	lo, hi = s.strip(lo, hi)
	op, width := lo, 1
	for ; op < hi; op = s.skip(op) {
		t := &s.toks[op]
		if t.isOp("<>") || t.isOp("!=") {
			break
		}
		if t.is("IS") && s.word(op+1, "DISTINCT") && s.word(op+2, "FROM") {
			width = 3
			break
		}
	}
	if op >= hi {
		return Param{}, false
	}
	sides := [2][2]int{{lo, op}, {op + width, hi}}
	for k := range 2 {
		col, _, ok := s.column(sides[k][0], sides[k][1])
		if !ok {
			continue
		}
		want, inserted := s.inserted[strings.ToLower(col)]
		if !inserted || want.param.IsZero() && !want.literal {
			return Param{}, false
		}
		other := sides[1-k]
		if v, ok := s.insertedRef(other[0], other[1]); ok {
			if v != want {
				return Param{}, false
			}
			return want.param, true
		}
		if v := s.valueAt(other[0], other[1]); !v.param.IsZero() && v.param.Style == want.param.Style && v.param.Index == want.param.Index && v.param.Name == want.param.Name {
			return want.param, true
		}
		return Param{}, false
	}
	return Param{}, false
}

// assignments reads "col = expr, (a, b) = (x, y), ..." in [lo, hi) and
// returns the placeholders assigned to columns.
func (s *stmt) assignments(lo, hi int) []Assign {
	var out []Assign
	for _, part := range s.split(lo, hi) {
		if eq := s.equals(part[0], part[1]); eq < part[1] {
			out = append(out, s.assignment(part[0], eq, part[1])...)
		}
	}
	return out
}

// accumulates reports whether every assignment in [lo, hi) is
// "col = col + expr" or "col = col - expr" (col possibly qualified on
// the right), with no other top-level operator after the sign.
func (s *stmt) accumulates(lo, hi int) bool {
	parts := s.split(lo, hi)
	for _, part := range parts {
		eq := s.equals(part[0], part[1])
		_, col, j, ok := s.name(part[0])
		if !ok || j != eq || eq >= part[1] {
			return false
		}
		_, self, k, ok := s.name(eq + 1)
		if !ok || !strings.EqualFold(self, col) || k >= part[1] || !s.toks[k].isOp("+") && !s.toks[k].isOp("-") {
			return false
		}
		for i := k + 1; i < part[1]; i = s.skip(i) {
			if t := &s.toks[i]; t.kind == tOp || t.kind == tWord && (t.is("OR") || t.is("AND") || t.is("IS") || t.is("COLLATE")) {
				return false
			}
		}
	}
	return len(parts) > 0
}

// equals returns the index of the first top-level "=" in [lo, hi), or hi.
func (s *stmt) equals(lo, hi int) int {
	for lo < hi && !s.toks[lo].isOp("=") {
		lo = s.skip(lo)
	}
	return min(lo, hi)
}

// assignment reads one "lhs = rhs" with the = at eq.
func (s *stmt) assignment(lo, eq, hi int) []Assign {
	if s.toks[lo].kind == tLParen { // (a, b) = ($1, $2) or ROW($1, $2)
		cols := s.columnList(lo+1, s.closeOf(lo))
		r := eq + 1
		if s.word(r, "ROW") {
			r++
		}
		if r >= hi || s.toks[r].kind != tLParen {
			return nil
		}
		var out []Assign
		for k, p := range s.split(r+1, s.closeOf(r)) {
			if v := s.valueAt(p[0], p[1]); k < len(cols) && cols[k] != "" && !v.param.IsZero() {
				out = append(out, Assign{Column: cols[k], Value: v.param})
			}
		}
		return out
	}
	_, col, j, ok := s.name(lo)
	if !ok || j != eq {
		return nil
	}
	v := s.assignedValue(eq+1, hi)
	if v.IsZero() {
		return nil
	}
	return []Assign{{Column: col, Value: v}}
}

// assignedValue returns the placeholder an assignment's right side in
// [lo, hi) stores: a placeholder, or EXCLUDED.col / VALUES(col) / new.col
// mapped to the inserted placeholder.
func (s *stmt) assignedValue(lo, hi int) Param {
	lo, hi = s.strip(lo, hi)
	if v := s.valueAt(lo, hi); !v.param.IsZero() {
		return v.param
	}
	if p, ok := s.insertedRef(lo, hi); ok {
		return p.param
	}
	return Param{}
}

// duplicateKeyUpdate reads MySQL's ON DUPLICATE KEY UPDATE list in
// [lo, hi). An assignment is fenced when its value is IF(cond, new, old) or
// CASE WHEN cond THEN new ELSE old END with a fence in cond; one that keeps
// (c = c) or only raises (c = GREATEST(c, ...)) its column needs no fence.
// The fences count only when every other assignment is fenced: a column
// overwritten unconditionally is an unfenced write.
func (s *stmt) duplicateKeyUpdate(lo, hi int) {
	var fences []Fence
	all := true
	for _, part := range s.split(lo, hi) {
		eq := s.equals(part[0], part[1])
		_, col, j, ok := s.name(part[0])
		if !ok || j != eq {
			all = false
			continue
		}
		vlo, vhi := s.strip(eq+1, part[1])
		if cond, val, ok := s.conditional(vlo, vhi); ok {
			f := s.fences(cond[0], cond[1], "ON DUPLICATE KEY UPDATE")
			all = all && len(f) > 0
			fences = append(fences, f...)
			vlo, vhi = val[0], val[1]
		} else if s.keepsOrRaises(col, vlo, vhi) {
			continue
		} else {
			all = false
		}
		if p := s.assignedValue(vlo, vhi); !p.IsZero() {
			s.st.Stored = append(s.st.Stored, Assign{Column: col, Value: p})
		}
	}
	if all {
		s.st.Fences = append(s.st.Fences, fences...)
	}
}

// conditional recognises IF(cond, new, old) and CASE WHEN cond THEN new
// ELSE old END in [lo, hi) and returns the ranges of cond and new.
func (s *stmt) conditional(lo, hi int) (cond, val [2]int, ok bool) {
	switch {
	case hi-lo > 2 && s.toks[lo].is("IF") && s.toks[lo+1].kind == tLParen && s.closeOf(lo+1) == hi-1:
		args := s.split(lo+2, hi-1)
		if len(args) == 3 {
			return args[0], args[1], true
		}
	case hi-lo > 4 && s.toks[lo].is("CASE") && s.toks[lo+1].is("WHEN") && s.toks[hi-1].is("END"):
		then := s.find(lo+2, hi, "THEN")
		els := s.find(then, hi, "ELSE", "WHEN")
		if then < hi && s.word(els, "ELSE") {
			return [2]int{lo + 2, then}, [2]int{then + 1, els}, true
		}
	}
	return cond, val, false
}

// keepsOrRaises reports whether the value in [lo, hi) assigned to col is
// col itself or GREATEST(..., col, ...), which cannot lower a fence.
func (s *stmt) keepsOrRaises(col string, lo, hi int) bool {
	if c, _, ok := s.column(lo, hi); ok && strings.EqualFold(c, col) {
		return true
	}
	if hi-lo > 3 && s.toks[lo].is("GREATEST") && s.toks[lo+1].kind == tLParen && s.closeOf(lo+1) == hi-1 {
		for _, a := range s.split(lo+2, hi-1) {
			if c, nullOK, ok := s.column(a[0], a[1]); ok && !nullOK && strings.EqualFold(c, col) {
				return true
			}
		}
	}
	return false
}

// insertedRef resolves EXCLUDED.col, VALUES(col) and rowAlias.col in
// [lo, hi) to what the INSERT put into col. ok is false if [lo, hi) is not
// such a reference.
func (s *stmt) insertedRef(lo, hi int) (value, bool) {
	if s.inserted == nil {
		return value{}, false
	}
	var col string
	switch {
	case hi-lo == 3 && s.toks[lo].isName() && s.toks[lo+1].kind == tDot && s.toks[lo+2].isName():
		q := s.toks[lo].text
		if !strings.EqualFold(q, "excluded") && (s.rowAlias == "" || !strings.EqualFold(q, s.rowAlias)) {
			return value{}, false
		}
		col = s.toks[lo+2].text
	case hi-lo >= 4 && s.toks[lo].is("VALUES") && s.toks[lo+1].kind == tLParen && s.closeOf(lo+1) == hi-1:
		_, last, j, ok := s.name(lo + 2)
		if !ok || j != hi-1 {
			return value{}, false
		}
		col = last
	default:
		return value{}, false
	}
	return s.inserted[strings.ToLower(col)], true
}

// merge reads MERGE INTO target [AS] alias USING ... ON ... WHEN [NOT]
// MATCHED [AND cond] THEN UPDATE|DELETE|INSERT|DO NOTHING. The write is
// fenced when every WHEN MATCHED branch that updates or deletes has a fence
// in its AND condition.
func (s *stmt) merge(i int) {
	s.st.Writes = true
	s.joined = true
	s.target(s.skipWords(i, "INTO"))
	var fences []Fence
	matched, fenced := 0, 0
	for w := s.find(i, s.hi, "WHEN"); w < s.hi; w = s.find(w+1, s.hi, "WHEN") {
		if !s.word(w+1, "MATCHED") {
			continue // WHEN NOT MATCHED ... THEN INSERT only creates rows
		}
		then := s.find(w+2, s.hi, "THEN")
		if s.word(then+1, "DO") {
			continue
		}
		matched++
		if s.word(w+2, "AND") {
			if f := s.fences(w+3, then, "MERGE WHEN"); len(f) > 0 {
				fenced++
				fences = append(fences, f...)
			}
		}
		if s.word(then+1, "UPDATE") && s.word(then+2, "SET") {
			end := s.find(then+3, s.hi, "WHEN")
			s.st.Stored = append(s.st.Stored, s.assignments(then+3, end)...)
		}
	}
	if matched > 0 && fenced == matched {
		s.st.Fences = fences
	}
}
