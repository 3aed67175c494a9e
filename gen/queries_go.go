package gen

import (
	"fmt"
	"go/ast"
	"path"
	"strings"

	"github.com/dave/jennifer/jen"
)

// queryFile is one users' queries file with sqlc's Go file for it.
type queryFile struct {
	src     string // the user's path, for documentation
	queries []*userQuery
	sqlc    *sqlcFile
}

// fencedQueries lists the fenced queries of files in order.
func fencedQueries(files []queryFile) []*userQuery {
	var out []*userQuery
	for _, f := range files {
		for _, q := range f.queries {
			if q.Fenced != nil {
				out = append(out, q)
			}
		}
	}
	return out
}

// queriesSection renders the token-taking methods of the users' fenced
// queries and the helpers they share.
func (w *goWriter) queriesSection(files []queryFile, tables []*fencedTable) error {
	if len(fencedQueries(files)) == 0 {
		return nil
	}
	w.queryHelpers(files, tables)
	for _, f := range files {
		for _, q := range f.queries {
			if q.Fenced == nil {
				continue
			}
			if err := w.query(f, q); err != nil {
				return errorf(q.NamePos, "%s: %v; please report this as a fencegen bug", q.Name, err)
			}
		}
	}
	return nil
}

// queryHelpers renders Written and the labelling helpers.
func (w *goWriter) queryHelpers(files []queryFile, tables []*fencedTable) {
	f := w.f
	f.Comment("Written is the outcome of a fenced query that may write many rows.")
	f.Type().Id("Written").Struct(
		jen.Id("Rows").Int64().Comment("rows the query wrote"),
		jen.Id("Stale").Int64().Comment("rows it matched but left alone because a newer token holds them"),
	)
	f.Comment("notWritten labels a fenced query that wrote nothing from its check: no row")
	f.Comment("matched its condition (a *NotFoundError) or a newer token holds them (a *StaleError).")
	nw := []jen.Code{jen.If(jen.Id("matched").Op("==").Lit(0)).Block(jen.Return(jen.Op("&").Id("NotFoundError").Values(jen.Dict{jen.Id("Table"): jen.Id("table")})))}
	if w.engine == MySQL && w.cmp == CompareLE {
		nw = append(nw,
			jen.Comment("MySQL reports a rewrite of identical values as unchanged: rows the token"),
			jen.Comment("admits were written."),
			jen.If(jen.Id("newer").Op("==").Lit(0)).Block(jen.Return(jen.Nil())))
	}
	nw = append(nw, jen.Return(jen.Op("&").Id("StaleError").Values(jen.Dict{jen.Id("Table"): jen.Id("table"), jen.Id("Token"): jen.Id("token"), jen.Id("Current"): jen.Op("&").Id("Token").Values(jen.Id("newest"))})))
	f.Func().Id("notWritten").Params(jen.Id("table").String(), jen.Id("token").Id("Token"), jen.List(jen.Id("matched"), jen.Id("newer"), jen.Id("newest")).Int64()).Error().Block(nw...)
	f.Comment("written labels a fenced query that may write many rows: rows it wrote, and stale")
	f.Comment("rows a newer token holds (current is their newest fence, nil if unknown). Any stale")
	f.Comment("row is a *StaleError: a newer holder has written, so this one lost its lease.")
	f.Func().Id("written").Params(jen.Id("table").String(), jen.Id("token").Id("Token"), jen.List(jen.Id("rows"), jen.Id("stale")).Int64(), jen.Id("current").Op("*").Id("Token")).Params(jen.Id("Written"), jen.Error()).Block(
		jen.Id("w").Op(":=").Id("Written").Values(jen.Dict{jen.Id("Rows"): jen.Id("rows"), jen.Id("Stale"): jen.Id("stale")}),
		jen.If(jen.Id("stale").Op(">").Lit(0)).Block(jen.Return(jen.Id("w"), jen.Op("&").Id("StaleError").Values(jen.Dict{jen.Id("Table"): jen.Id("table"), jen.Id("Token"): jen.Id("token"), jen.Id("Current"): jen.Id("current")}))),
		jen.Return(jen.Id("w"), jen.Nil()),
	)
	f.Comment("staleRows counts the stale rows of a query that wrote written rows: those a newer")
	if w.cmp == CompareLE {
		f.Comment("token holds.")
		f.Func().Id("staleRows").Params(jen.List(jen.Id("written"), jen.Id("matched"), jen.Id("newer")).Int64()).Int64().Block(jen.Return(jen.Id("newer")))
	} else {
		f.Comment("token holds, or every row its condition matched when it wrote none (under \"<\" a")
		f.Comment("fence equal to the token rejects too).")
		f.Func().Id("staleRows").Params(jen.List(jen.Id("written"), jen.Id("matched"), jen.Id("newer")).Int64()).Int64().Block(
			jen.If(jen.Id("written").Op("==").Lit(0)).Block(jen.Return(jen.Id("matched"))),
			jen.Return(jen.Id("newer")),
		)
	}
	if anyCounted(files) {
		f.Comment("mysqlRejectBase is a fenced MySQL upsert's LastInsertId when its fence rejected")
		f.Comment("no row: the statement sets LAST_INSERT_ID to 2^64-2^32 and adds one for each")
		f.Comment("rejected row (the affected-rows count cannot tell them, whatever clientFoundRows says).")
		f.Const().Id("mysqlRejectBase").Op("=").Lit(-1).Op("<<").Lit(32)
		f.Comment("rejectedRows is the number of rows a fenced MySQL upsert's fence rejected, read")
		f.Comment("from its LastInsertId (an AUTO_INCREMENT id it inserted is outside that range).")
		f.Func().Id("rejectedRows").Params(jen.Id("id").Int64()).Int64().Block(
			jen.If(jen.Id("id").Op(">=").Id("mysqlRejectBase").Op("&&").Id("id").Op("<").Lit(0)).Block(
				jen.Return(jen.Id("id").Op("-").Id("mysqlRejectBase")),
			),
			jen.Return(jen.Lit(0)),
		)
	}
	if !w.tablesNeedRange(tables) && w.queriesNeedRange(files) {
		w.checkTokenRange()
	}
}

// anyCounted reports whether a query of files is a MySQL upsert.
func anyCounted(files []queryFile) bool {
	for _, q := range fencedQueries(files) {
		if q.Fenced.Counted {
			return true
		}
	}
	return false
}

// tablesNeedRange reports whether the tables' section renders checkTokenRange.
func (w *goWriter) tablesNeedRange(tables []*fencedTable) bool {
	for _, t := range tables {
		if w.tokenRangeOf(t) != fullRange {
			return true
		}
	}
	return false
}

func (w *goWriter) queriesNeedRange(files []queryFile) bool {
	for _, f := range files {
		for _, q := range f.queries {
			if q.Fenced != nil {
				if rng, err := w.queryRange(f, q); err == nil && rng != fullRange {
					return true
				}
			}
		}
	}
	return false
}

// queryParams is a fenced query's params struct split into the token
// field and the user's fields.
type queryParams struct {
	token  field
	fields []field
}

// params reads sqlc's params struct of a rewritten query: the token is
// the field of fencegen's named parameter, or the last one of a positional
// query (its number is one past the user's).
func (q *userQuery) params(sf *sqlcFile, name string) (queryParams, error) {
	fields, ok := sf.structs[name+"Params"]
	if !ok || len(fields) == 0 {
		return queryParams{}, fmt.Errorf("sqlc generated no %sParams", name)
	}
	var p queryParams
	if q.Fenced.Positional {
		p.token, p.fields = fields[len(fields)-1], fields[:len(fields)-1]
		return p, nil
	}
	for _, fl := range fields {
		if fl.Name == structName(tokenParam) {
			p.token = fl
		} else {
			p.fields = append(p.fields, fl)
		}
	}
	if p.token.Name == "" {
		return p, fmt.Errorf("sqlc's %sParams has no token field", name)
	}
	return p, nil
}

// queryRange is the range of tokens q's fence stores.
func (w *goWriter) queryRange(f queryFile, q *userQuery) (tokenRange, error) {
	p, err := q.params(f.sqlc, q.sqlcName())
	if err != nil {
		return fullRange, err
	}
	conv, ok := tokenType(f.sqlc.qualifiedType(p.token.Type))
	if !ok {
		return fullRange, fmt.Errorf("sqlc typed the token of %s as %s", q.Name, f.sqlc.qualifiedType(p.token.Type))
	}
	return columnRange(w.engine, q.Fenced.Fence.Type).intersect(goIntRange(conv.Plain)), nil
}

// query renders a fenced query's exported params struct and method.
func (w *goWriter) query(f queryFile, q *userQuery) error {
	p, err := q.params(f.sqlc, q.sqlcName())
	if err != nil {
		return err
	}
	conv, ok := tokenType(f.sqlc.qualifiedType(p.token.Type))
	if !ok {
		return fmt.Errorf("sqlc typed the token as %s", f.sqlc.qualifiedType(p.token.Type))
	}
	var decl []jen.Code
	lit := jen.Dict{jen.Id(p.token.Name): conv.toDriver(jen.Id("token").Dot("n"))}
	for _, fl := range p.fields {
		typ, err := f.sqlc.typeCode(fl.Type)
		if err != nil {
			return err
		}
		decl = append(decl, jen.Id(fl.Name).Add(typ))
		lit[jen.Id(fl.Name)] = jen.Id("arg").Dot(fl.Name)
	}
	table := q.Fenced.Table.QualifiedName()
	if w.plugin == nil || !w.plugin.emitsParams(len(p.fields)) {
		// Else sqlc declares the same struct for the unfenced query.
		w.f.Commentf("%sParams holds the parameters of query %s (%s:%d); the token sets the fence.", q.Name, q.Name, path.Base(q.NamePos.File), q.NamePos.Line)
		w.f.Type().Id(q.Name + "Params").Struct(decl...)
	}

	rng, err := w.queryRange(f, q)
	if err != nil {
		return err
	}
	body := w.rangeCheckOf(table, rng, q.zeroResults(f.sqlc))
	call := jen.Id("f").Dot("q").Dot(q.sqlcName()).Call(jen.Id("ctx"), jen.Id(q.sqlcName()+"Params").Values(lit))
	check, err := w.checkCall(f, q, p)
	if err != nil {
		return err
	}
	body = append(body, q.body(w, call, check, table)...)

	for _, line := range q.methodDoc(w.cmp) {
		w.f.Comment(line)
	}
	results, err := q.results(f.sqlc)
	if err != nil {
		return err
	}
	w.f.Func().Params(jen.Id("f").Op("*").Id("Fenced")).Id(q.Name).
		Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("token").Id("Token"), jen.Id("arg").Id(q.Name+"Params")).
		Add(results).Block(body...)
	return nil
}

// methodDoc documents a fenced query's method.
func (q *userQuery) methodDoc(cmp Compare) []string {
	fq := q.Fenced
	doc := []string{fmt.Sprintf("%s runs query %s (%s:%d) fenced: it writes only %s rows whose fence %s token, and sets their fence to token.", q.Name, q.Name, path.Base(q.NamePos.File), q.NamePos.Line, fq.Table.QualifiedName(), cmp)}
	if fq.Kind == "upsert" {
		doc[0] = fmt.Sprintf("%s runs query %s (%s:%d) fenced: new %s rows get fence token, and a conflicting row is updated only if its fence %s token.", q.Name, q.Name, path.Base(q.NamePos.File), q.NamePos.Line, fq.Table.QualifiedName(), cmp)
	}
	for _, c := range q.Comments {
		doc = append(doc, commentText(c))
	}
	switch {
	case q.Cmd == cmdExecRows:
		doc = append(doc, "It returns the rows written, and a *StaleError with the count of stale rows if a newer token holds any row it matched.")
	case q.Cmd == cmdMany:
		doc = append(doc, "It returns the rows written, and a *StaleError if a newer token holds any row it matched.")
	case fq.Kind == "upsert":
		doc = append(doc, "It returns a *StaleError if a newer token holds the conflicting row.")
	default:
		doc = append(doc, "It returns a *StaleError if a newer token holds the rows it matched and a *NotFoundError if it matched none.")
	}
	if fq.Limited {
		doc = append(doc, "Rows a newer token holds are passed over, and counted stale within the LIMIT or beyond it.")
	}
	if fq.Kind == "upsert" && fq.Check != "" {
		doc = append(doc, "A row the query's own DO UPDATE condition skips is not stale (a :one query returns sqlc's no-rows error for it, as unfenced).")
	}
	return doc
}

// results is the method's result list.
func (q *userQuery) results(sf *sqlcFile) (jen.Code, error) {
	switch q.Cmd {
	case cmdExec:
		return jen.Error(), nil
	case cmdExecRows:
		return jen.Params(jen.Id("Written"), jen.Error()), nil
	}
	typ, ok := sf.results[q.sqlcName()]
	if !ok {
		return nil, fmt.Errorf("sqlc generated no method %s", q.sqlcName())
	}
	code, err := sf.typeCode(typ)
	return jen.Params(code, jen.Error()), err
}

// zeroResults are the results returned before anything was sent.
func (q *userQuery) zeroResults(sf *sqlcFile) []jen.Code {
	switch q.Cmd {
	case cmdExec:
		return nil
	case cmdExecRows:
		return []jen.Code{jen.Id("Written").Values()}
	case cmdMany:
		return []jen.Code{jen.Nil()}
	}
	typ := sf.results[q.sqlcName()]
	code, _ := sf.typeCode(typ)
	if _, isPtr := typ.(*ast.StarExpr); isPtr {
		return []jen.Code{jen.Nil()}
	}
	return []jen.Code{jen.Add(code).Values()}
}

// rangeCheckOf refuses a token outside rng before anything is sent.
func (w *goWriter) rangeCheckOf(table string, rng tokenRange, zero []jen.Code) []jen.Code {
	if rng == fullRange {
		return nil
	}
	return []jen.Code{
		jen.If(jen.Err().Op(":=").Id("checkTokenRange").Call(jen.Lit(table), jen.Id("token"), intConst(rng.min), intConst(rng.max)), jen.Err().Op("!=").Nil()).Block(
			jen.Return(append(zero, jen.Err())...),
		),
	}
}

// checkCall renders the call of q's check query, or nil for an upsert.
func (w *goWriter) checkCall(f queryFile, q *userQuery, main queryParams) (jen.Code, error) {
	if q.Fenced.Check == "" {
		return nil, nil
	}
	p, err := q.params(f.sqlc, q.checkName())
	if err != nil {
		return nil, err
	}
	conv, ok := tokenType(f.sqlc.qualifiedType(p.token.Type))
	if !ok {
		return nil, fmt.Errorf("sqlc typed the check's token as %s", f.sqlc.qualifiedType(p.token.Type))
	}
	lit := jen.Dict{jen.Id(p.token.Name): conv.toDriver(jen.Id("token").Dot("n"))}
	for i, fl := range p.fields {
		src := fl.Name
		if q.Fenced.ByIndex {
			if i >= len(q.Fenced.CheckParams) || q.Fenced.CheckParams[i]-1 >= len(main.fields) {
				return nil, fmt.Errorf("the check of %s has parameters its query lacks", q.Name)
			}
			src = main.fields[q.Fenced.CheckParams[i]-1].Name
		} else if !hasField(main.fields, src) {
			return nil, fmt.Errorf("the check of %s has parameter %s, which its query lacks", q.Name, src)
		}
		lit[jen.Id(fl.Name)] = jen.Id("arg").Dot(src)
	}
	return jen.Id("f").Dot("q").Dot(q.checkName()).Call(jen.Id("ctx"), jen.Id(q.checkName()+"Params").Values(lit)), nil
}

func hasField(fields []field, name string) bool {
	for _, f := range fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

// body renders the method's statements after the range check: run the
// fenced statement, then label its outcome.
func (q *userQuery) body(w *goWriter, call, check jen.Code, table string) []jen.Code {
	wrap := func(what string) jen.Code {
		return jen.Qual("fmt", "Errorf").Call(jen.Lit(what+" "+q.Name+": %w"), jen.Err())
	}
	if q.Fenced.Counted {
		return q.countedBody(call, table, wrap)
	}
	if q.Fenced.Kind == "upsert" {
		return q.upsertBody(w, call, check, table, wrap)
	}
	runCheck := func(zero ...jen.Code) []jen.Code {
		return []jen.Code{
			jen.List(jen.Id("c"), jen.Err()).Op(":=").Add(check),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(append(zero, wrap("checking the outcome of fenced query"))...)),
		}
	}
	switch q.Cmd {
	case cmdExec:
		body := []jen.Code{
			jen.List(jen.Id("n"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(wrap("fenced query"))),
			jen.If(jen.Id("n").Op(">").Lit(0)).Block(jen.Return(jen.Nil())),
		}
		body = append(body, runCheck()...)
		return append(body, jen.Return(jen.Id("notWritten").Call(jen.Lit(table), jen.Id("token"), jen.Id("c").Dot("Matched"), jen.Id("c").Dot("Newer"), jen.Id("c").Dot("Newest"))))
	case cmdExecRows:
		body := []jen.Code{
			jen.List(jen.Id("n"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("Written").Values(), wrap("fenced query"))),
		}
		body = append(body, runCheck(jen.Id("Written").Values(jen.Dict{jen.Id("Rows"): jen.Id("n")}))...)
		return append(body, q.staleCount(jen.Id("n"))...)
	case cmdOne:
		label := append(runCheck(jen.Id("row")), jen.Return(jen.Id("row"), jen.Id("notWritten").Call(jen.Lit(table), jen.Id("token"), jen.Id("c").Dot("Matched"), jen.Id("c").Dot("Newer"), jen.Id("c").Dot("Newest"))))
		return []jen.Code{
			jen.List(jen.Id("row"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Qual("errors", "Is").Call(jen.Err(), w.noRows())).Block(label...),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("row"), wrap("fenced query"))),
			jen.Return(jen.Id("row"), jen.Nil()),
		}
	default: // :many
		body := []jen.Code{
			jen.List(jen.Id("rows"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), wrap("fenced query"))),
		}
		body = append(body, runCheck(jen.Id("rows"))...)
		return append(body,
			jen.List(jen.Id("_"), jen.Err()).Op("=").Add(q.staleCall(jen.Int64().Call(jen.Len(jen.Id("rows"))))),
			jen.Return(jen.Id("rows"), jen.Err()),
		)
	}
}

// upsertBody labels an upsert. Each VALUES row is inserted or updated (one
// row each) unless refused; without a DO UPDATE condition of the user's,
// only the fence refuses, so a row not written is stale. With one, the
// check counts the conflicting rows whose fence rejects the token: the
// others were skipped by the user's condition, as they would have been
// unfenced.
func (q *userQuery) upsertBody(w *goWriter, call, check jen.Code, table string, wrap func(string) jen.Code) []jen.Code {
	tuples := jen.Lit(q.Fenced.Tuples)
	stale := func(current jen.Code) *jen.Statement {
		d := jen.Dict{jen.Id("Table"): jen.Lit(table), jen.Id("Token"): jen.Id("token")}
		if current != nil {
			d[jen.Id("Current")] = current
		}
		return jen.Op("&").Id("StaleError").Values(d)
	}
	newest := jen.Op("&").Id("Token").Values(jen.Id("c").Dot("Newest"))
	// runCheck reads the check into c and the stale rows into stale; written
	// is the rows the statement wrote, zero the other results on failure.
	runCheck := func(written jen.Code, zero ...jen.Code) []jen.Code {
		count := jen.Id("c").Dot("Newer")
		if w.cmp == CompareLT { // the rows just written hold the token too
			count = jen.Max(jen.Id("c").Dot("Newer").Op("-").Add(written), jen.Lit(0))
		}
		return []jen.Code{
			jen.List(jen.Id("c"), jen.Id("cerr")).Op(":=").Add(check),
			jen.If(jen.Id("cerr").Op("!=").Nil()).Block(jen.Return(append(zero, jen.Qual("fmt", "Errorf").Call(jen.Lit("checking the outcome of fenced query "+q.Name+": %w"), jen.Id("cerr")))...)),
			jen.Id("stale").Op(":=").Add(count),
		}
	}
	// allWritten returns early, with results, when every VALUES row was
	// written; an upsert from a query always runs its check.
	allWritten := func(n jen.Code, results ...jen.Code) []jen.Code {
		if q.Fenced.Tuples == 0 {
			return nil
		}
		cond := jen.Add(n).Op(">=").Lit(q.Fenced.Tuples)
		if q.Fenced.Tuples == 1 {
			cond = jen.Add(n).Op(">").Lit(0)
		}
		return []jen.Code{jen.If(cond).Block(jen.Return(results...))}
	}
	switch q.Cmd {
	case cmdExec:
		body := []jen.Code{
			jen.List(jen.Id("n"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(wrap("fenced query"))),
		}
		body = append(body, allWritten(jen.Id("n"), jen.Nil())...)
		if check == nil {
			return append(body, jen.Return(stale(nil)))
		}
		return append(append(body, runCheck(jen.Id("n"))...),
			jen.If(jen.Id("stale").Op(">").Lit(0)).Block(jen.Return(stale(newest))),
			jen.Return(jen.Nil()),
		)
	case cmdExecRows:
		body := []jen.Code{
			jen.List(jen.Id("n"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("Written").Values(), wrap("fenced query"))),
		}
		if check == nil {
			return append(body, jen.Return(jen.Id("written").Call(jen.Lit(table), jen.Id("token"), jen.Id("n"), jen.Max(jen.Lit(0), tuples.Clone().Op("-").Id("n")), jen.Nil())))
		}
		body = append(body, allWritten(jen.Id("n"), jen.Id("Written").Values(jen.Dict{jen.Id("Rows"): jen.Id("n")}), jen.Nil())...)
		return append(append(body, runCheck(jen.Id("n"), jen.Id("Written").Values(jen.Dict{jen.Id("Rows"): jen.Id("n")}))...),
			jen.Return(jen.Id("written").Call(jen.Lit(table), jen.Id("token"), jen.Id("n"), jen.Id("stale"), newest)),
		)
	case cmdOne:
		label := []jen.Code{jen.Return(jen.Id("row"), stale(nil))}
		if check != nil {
			label = append(runCheck(jen.Lit(0), jen.Id("row")),
				jen.If(jen.Id("stale").Op(">").Lit(0)).Block(jen.Return(jen.Id("row"), stale(newest))),
				jen.Return(jen.Id("row"), jen.Err()), // skipped by the query's own condition
			)
		}
		body := []jen.Code{
			jen.List(jen.Id("row"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Qual("errors", "Is").Call(jen.Err(), w.noRows())).Block(label...),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("row"), wrap("fenced query"))),
		}
		if q.Fenced.Tuples == 0 { // the query may have given rows beyond the one returned
			body = append(append(body, runCheck(jen.Lit(1), jen.Id("row"))...),
				jen.If(jen.Id("stale").Op(">").Lit(0)).Block(jen.Return(jen.Id("row"), stale(newest))))
		}
		return append(body, jen.Return(jen.Id("row"), jen.Nil()))
	default: // :many
		label := []jen.Code{jen.Return(jen.Id("rows"), stale(nil))}
		if check != nil {
			label = append(runCheck(jen.Int64().Call(jen.Len(jen.Id("rows"))), jen.Id("rows")),
				jen.If(jen.Id("stale").Op(">").Lit(0)).Block(jen.Return(jen.Id("rows"), stale(newest))),
			)
		}
		body := []jen.Code{
			jen.List(jen.Id("rows"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), wrap("fenced query"))),
		}
		if q.Fenced.Tuples == 0 {
			body = append(body, label...)
		} else {
			body = append(body, jen.If(jen.Len(jen.Id("rows")).Op("<").Add(tuples)).Block(label...))
		}
		return append(body, jen.Return(jen.Id("rows"), jen.Nil()))
	}
}

// countedBody labels a MySQL upsert by the rows its fence rejected, which
// its LastInsertId counts: every other row of its VALUES was written.
func (q *userQuery) countedBody(call jen.Code, table string, wrap func(string) jen.Code) []jen.Code {
	var zero []jen.Code
	if q.Cmd == cmdExecRows {
		zero = []jen.Code{jen.Id("Written").Values()}
	}
	body := []jen.Code{
		jen.List(jen.Id("res"), jen.Err()).Op(":=").Add(call),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(append(zero, wrap("fenced query"))...)),
		jen.List(jen.Id("id"), jen.Err()).Op(":=").Id("res").Dot("LastInsertId").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(append(zero, wrap("reading the outcome of fenced query"))...)),
	}
	if q.Cmd == cmdExecRows {
		return append(body,
			jen.Id("stale").Op(":=").Id("rejectedRows").Call(jen.Id("id")),
			jen.Return(jen.Id("written").Call(jen.Lit(table), jen.Id("token"), jen.Lit(q.Fenced.Tuples).Op("-").Id("stale"), jen.Id("stale"), jen.Nil())),
		)
	}
	return append(body,
		jen.If(jen.Id("rejectedRows").Call(jen.Id("id")).Op(">").Lit(0)).Block(
			jen.Return(jen.Op("&").Id("StaleError").Values(jen.Dict{jen.Id("Table"): jen.Lit(table), jen.Id("Token"): jen.Id("token")})),
		),
		jen.Return(jen.Nil()),
	)
}

// staleCount returns the Written of a many-row query from its check c:
// stale rows are those a newer token holds, or every row the condition
// matched when nothing was written (under "<" a fence equal to the token
// also rejects).
func (q *userQuery) staleCount(rows jen.Code) []jen.Code {
	return []jen.Code{jen.Return(q.staleCall(rows))}
}

func (q *userQuery) staleCall(rows jen.Code) jen.Code {
	return jen.Id("written").Call(jen.Lit(q.Fenced.Table.QualifiedName()), jen.Id("token"), rows,
		jen.Id("staleRows").Call(rows, jen.Id("c").Dot("Matched"), jen.Id("c").Dot("Newer")),
		jen.Op("&").Id("Token").Values(jen.Id("c").Dot("Newest")))
}

// commentText is a SQL comment's text without its markers.
func commentText(c string) string {
	c = strings.TrimPrefix(c, "--")
	c = strings.TrimSuffix(strings.TrimPrefix(c, "/*"), "*/")
	return strings.TrimSpace(c)
}
