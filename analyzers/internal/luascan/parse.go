package luascan

import (
	"slices"
	"strconv"
)

// maxDepth bounds the nesting of blocks and expressions, so that hostile
// input cannot exhaust the stack.
const maxDepth = 200

// binding is a local variable in scope.
type binding struct {
	name  string
	v     val
	block int // block depth of the declaration
}

// parser is a recursive-descent Lua parser that evaluates expressions to
// abstract values as it goes and records redis calls with the guards that
// hold where they run.
type parser struct {
	lx      lexer
	tok     token
	problem string
	depth   int

	script Script
	env    []binding   // locals in scope, innermost last
	block  int         // current block depth
	facts  []guardInfo // guards that hold at the current point
	ended  []guardInfo // the guards the last block parsed added and left holding at its end
	funcs  int         // depth of function bodies
}

// newParser returns a parser positioned at the first token of src.
func newParser(src string) *parser {
	p := &parser{lx: lexer{src: src}}
	p.next()
	return p
}

// next advances to the next token.
func (p *parser) next() {
	p.tok = p.lx.next()
	if p.lx.problem != "" && p.problem == "" {
		p.problem = p.lx.problem
	}
}

// fail records the first syntax error, at the current token, and stops
// the parse.
func (p *parser) fail(msg string) { p.failAt(p.tok.pos, msg) }

// failAt records the first problem, at offset pos, and stops the parse.
func (p *parser) failAt(pos int, msg string) {
	if p.problem == "" {
		p.problem = msg + " at offset " + strconv.Itoa(pos)
	}
	p.lx.i = len(p.lx.src)
	p.tok = token{kind: tEOF, pos: len(p.lx.src)}
}

// is reports whether the current token is the keyword or operator s.
func (p *parser) is(s string) bool {
	return (p.tok.kind == tName || p.tok.kind == tOp) && p.tok.text == s
}

// accept consumes the token s if it is current.
func (p *parser) accept(s string) bool {
	if p.is(s) {
		p.next()
		return true
	}
	return false
}

// expect consumes the token s or fails.
func (p *parser) expect(s string) {
	if !p.accept(s) {
		p.fail("expected " + strconv.Quote(s))
	}
}

// enter increases the nesting depth; it reports false (and fails) when
// the input nests too deeply.
func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxDepth {
		p.fail("nesting too deep")
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// chunk parses the whole script.
func (p *parser) chunk() {
	p.blockBody()
	if p.tok.kind != tEOF {
		p.fail("unexpected " + strconv.Quote(p.tok.text))
	}
}

// blockEnd reports whether the current token ends a block.
func (p *parser) blockEnd() bool {
	return p.tok.kind == tEOF || p.is("end") || p.is("else") || p.is("elseif") || p.is("until")
}

// blockBody parses statements up to the end of a block, in a new scope.
// It reports whether the block always leaves by return, break, goto or
// error(), so that what follows it in the enclosing block does not run.
func (p *parser) blockBody() (exits bool) {
	if !p.enter() {
		return false
	}
	defer p.leave()
	envLen, factLen := len(p.env), len(p.facts)
	p.block++
	defer func() {
		p.ended = nil
		if !exits {
			p.ended = slices.Clone(p.facts[factLen:])
		}
		p.block--
		p.env, p.facts = p.env[:envLen], p.facts[:factLen]
	}()
	for !p.blockEnd() {
		if p.is("return") {
			p.next()
			if !p.blockEnd() && !p.is(";") {
				p.exprList()
			}
			p.accept(";")
			return true
		}
		exits = p.statement()
	}
	return exits
}

// statement parses one statement and reports whether it always leaves the
// enclosing block.
func (p *parser) statement() bool {
	switch {
	case p.accept(";"):
	case p.is("if"):
		return p.ifStat()
	case p.accept("while"):
		cond := p.expr()
		p.expect("do")
		t, _ := truth(cond)
		p.guarded(t, p.blockBody)
		p.expect("end")
	case p.accept("do"):
		exits := p.blockBody()
		p.facts = append(p.facts, p.ended...)
		p.expect("end")
		return exits
	case p.accept("for"):
		p.forStat()
	case p.accept("repeat"):
		p.blockBody()
		p.expect("until")
		p.expr()
	case p.accept("function"):
		p.funcName()
		p.funcBody()
	case p.accept("local"):
		p.localStat()
	case p.accept("::"):
		p.name()
		p.expect("::")
	case p.accept("break"):
		return true
	case p.accept("goto"):
		p.name()
		return true
	default:
		return p.exprStat()
	}
	return false
}

// guarded runs body with the guard g holding.
func (p *parser) guarded(g guardInfo, body func() bool) bool {
	p.facts = append(p.facts, g)
	exits := body()
	p.facts = p.facts[:len(p.facts)-1]
	return exits
}

// ifStat parses if/elseif/else/end. Each branch runs with its own
// condition true and the earlier ones false. When the branches that can
// fall through all had some condition false, the code after the if runs
// with those guards: "if stale then return 0 end; write" guards write.
// When several branches fall through, the code after runs with what holds
// at the end of each of them: "if cur then if token <= cur then return 0
// end end; write" guards write (the key is missing, or the token is newer).
func (p *parser) ifStat() bool {
	var falses []guardInfo  // guards that hold when each condition so far was false
	var through []guardInfo // the guard at the end of each branch that falls through
	allExit, hasElse := true, false
	for first := true; first || p.is("elseif"); first = false {
		p.next() // if / elseif
		p.facts = append(p.facts, falses...)
		t, f := truth(p.expr())
		p.expect("then")
		exits := p.guarded(t, p.blockBody)
		if !exits {
			through = append(through, conjunction(slices.Concat(falses, []guardInfo{t}, p.ended)))
		}
		p.facts = p.facts[:len(p.facts)-len(falses)]
		allExit = allExit && exits
		falses = append(falses, f)
	}
	prevExit, elseExits := allExit, false
	var elseEnded []guardInfo
	if p.accept("else") {
		hasElse = true
		p.facts = append(p.facts, falses...)
		elseExits = p.blockBody()
		elseEnded = p.ended
		allExit = elseExits && allExit
		p.facts = p.facts[:len(p.facts)-len(falses)]
	}
	p.expect("end")
	switch {
	case hasElse && allExit:
		return true
	case prevExit:
		// Only the else branch (or no branch) falls through.
		p.facts = append(p.facts, falses...)
		p.facts = append(p.facts, elseEnded...)
	default:
		if !elseExits {
			through = append(through, conjunction(slices.Concat(falses, elseEnded)))
		}
		if g := eitherAll(through); g.g > None || g.absent {
			p.facts = append(p.facts, g)
		}
	}
	return false
}

// forStat parses numeric and generic for loops.
func (p *parser) forStat() {
	first := p.name()
	names := []string{first}
	var loopVals []val
	if p.accept("=") {
		p.expr()
		p.expect(",")
		p.expr()
		if p.accept(",") {
			p.expr()
		}
	} else {
		for p.accept(",") {
			names = append(names, p.name())
		}
		p.expect("in")
		vs := p.exprList()
		if len(vs) > 0 {
			loopVals = iteration(vs[0])
		}
	}
	p.expect("do")
	envLen := len(p.env)
	for i, n := range names {
		var v val
		if i < len(loopVals) {
			v = loopVals[i]
		}
		p.env = append(p.env, binding{name: n, v: v, block: p.block + 1})
	}
	p.blockBody()
	p.env = p.env[:envLen]
	p.expect("end")
}

// iteration returns the values of the loop variables of
// "for i, k in ipairs(KEYS)" given the iterator expression's value.
func iteration(v val) []val {
	switch v.kind {
	case vKeys:
		return []val{{}, {kind: vKey}}
	case vArgvs:
		return []val{{}, {kind: vArgv}}
	}
	return nil
}

// localStat parses "local function f" and "local a, b = e1, e2".
func (p *parser) localStat() {
	if p.accept("function") {
		n := p.name()
		p.env = append(p.env, binding{name: n, block: p.block})
		p.funcBody()
		return
	}
	names := []string{p.name()}
	p.attrib()
	for p.accept(",") {
		names = append(names, p.name())
		p.attrib()
	}
	var vs []val
	if p.accept("=") {
		vs = p.exprList()
	}
	for i, n := range names {
		var v val
		if i < len(vs) {
			v = vs[i]
		}
		p.env = append(p.env, binding{name: n, v: v, block: p.block})
	}
	if len(p.env) > maxLocals {
		p.fail("too many local variables")
	}
}

// maxLocals bounds the locals in scope (Lua itself allows 200 per
// function), so that name lookups stay cheap on hostile input.
const maxLocals = 1000

// attrib skips a Lua 5.4 attribute: <const> or <close>.
func (p *parser) attrib() {
	if p.accept("<") {
		p.name()
		p.expect(">")
	}
}

// name consumes a name and returns it.
func (p *parser) name() string {
	if p.tok.kind != tName || keyword(p.tok.text) {
		p.fail("expected a name")
		return ""
	}
	n := p.tok.text
	p.next()
	return n
}

// funcName parses a function statement's name: a.b.c[:m].
func (p *parser) funcName() {
	p.name()
	for p.accept(".") {
		p.name()
	}
	if p.accept(":") {
		p.name()
	}
}

// funcBody parses "(params) block end". The body runs at call time, so the
// guards around the definition do not hold in it, and parameters are
// values this package cannot follow.
func (p *parser) funcBody() {
	savedFacts := p.facts
	p.facts = nil
	p.funcs++
	envLen := len(p.env)
	p.expect("(")
	for !p.is(")") && p.tok.kind != tEOF {
		if p.accept("...") {
			break
		}
		p.env = append(p.env, binding{name: p.name(), v: val{kind: vUnsure}, block: p.block + 1})
		if !p.accept(",") {
			break
		}
	}
	p.expect(")")
	p.blockBody()
	p.expect("end")
	p.env = p.env[:envLen]
	p.funcs--
	p.facts = savedFacts
}

// exprStat parses an assignment or a call statement and reports whether it
// is a call of error(), which leaves the block.
func (p *parser) exprStat() bool {
	target := p.suffixed()
	if !p.is("=") && !p.is(",") {
		if !target.call {
			p.fail("syntax error")
		}
		return target.path == "error"
	}
	targets := []suffix{target}
	for p.accept(",") {
		targets = append(targets, p.suffixed())
	}
	p.expect("=")
	vs := p.exprList()
	for i, t := range targets {
		if t.local == "" {
			continue
		}
		var v val
		if i < len(vs) {
			v = vs[i]
		}
		p.assign(t.local, v)
	}
	return false
}

// assign sets a local's value. An assignment in a nested block (or a
// function) happens on some paths only, so the local is no longer followed.
func (p *parser) assign(name string, v val) {
	for i := len(p.env) - 1; i >= 0; i-- {
		if p.env[i].name == name {
			if p.env[i].block != p.block {
				v = unsure(p.env[i].v)
			}
			p.env[i].v = v
			return
		}
	}
}

// lookup returns the value of a name: a local, or KEYS/ARGV.
func (p *parser) lookup(name string) val {
	for i := len(p.env) - 1; i >= 0; i-- {
		if p.env[i].name == name {
			return p.env[i].v
		}
	}
	switch name {
	case "KEYS":
		return val{kind: vKeys}
	case "ARGV":
		return val{kind: vArgvs}
	}
	return val{}
}

// keyword reports Lua's reserved words.
func keyword(s string) bool {
	switch s {
	case "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
		"local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while":
		return true
	}
	return false
}

// exprList parses "e1, e2, ..." and returns their values.
func (p *parser) exprList() []val {
	vs := []val{p.expr()}
	for p.accept(",") {
		vs = append(vs, p.expr())
	}
	return vs
}

// expr parses an expression.
func (p *parser) expr() val { return p.subexpr(0) }

// binaryPriority returns the left and right priorities of a binary operator
// (Lua's own table), or ok false.
func binaryPriority(t token) (left, right int, ok bool) {
	if t.kind != tName && t.kind != tOp {
		return 0, 0, false
	}
	switch t.text {
	case "or":
		return 1, 1, true
	case "and":
		return 2, 2, true
	case "<", ">", "<=", ">=", "~=", "==":
		return 3, 3, true
	case "|":
		return 4, 4, true
	case "~":
		return 5, 5, true
	case "&":
		return 6, 6, true
	case "<<", ">>":
		return 7, 7, true
	case "..":
		return 9, 8, true
	case "+", "-":
		return 10, 10, true
	case "*", "/", "//", "%":
		return 11, 11, true
	case "^":
		return 14, 13, true
	}
	return 0, 0, false
}

// unaryPriority is the priority of not, #, - and ~.
const unaryPriority = 12

// subexpr parses an expression whose binary operators bind tighter than
// limit (precedence climbing, as in Lua's own parser).
func (p *parser) subexpr(limit int) val {
	if !p.enter() {
		return val{}
	}
	defer p.leave()
	var v val
	switch {
	case p.accept("not"):
		v = not(p.subexpr(unaryPriority))
	case p.is("-") || p.is("#") || p.is("~"):
		p.next()
		p.subexpr(unaryPriority)
	default:
		v = p.simple()
	}
	for {
		left, right, ok := binaryPriority(p.tok)
		if !ok || left <= limit {
			return v
		}
		op := p.tok.text
		p.next()
		w := p.subexpr(right)
		switch op {
		case "and", "or":
			v = logical(v, op, w)
		case "<", ">", "<=", ">=", "~=", "==":
			v = compare(v, op, w)
		case "+", "-":
			v = arith(v, op, w)
		default:
			v = val{}
		}
	}
}

// simple parses a literal, a function, a table constructor or a suffixed
// expression.
func (p *parser) simple() val {
	t := p.tok
	switch {
	case t.kind == tNumber:
		p.next()
		return val{kind: vLit, lit: t.text}
	case t.kind == tString:
		p.next()
		return val{kind: vLit, lit: t.text}
	case p.is("nil") || p.is("true") || p.is("false"):
		p.next()
		return val{kind: vLit, lit: t.text}
	case p.accept("..."):
		return val{}
	case p.accept("function"):
		p.funcBody()
		return val{}
	case p.is("{"):
		p.table()
		return val{}
	}
	return p.suffixed().v
}

// table parses a table constructor.
func (p *parser) table() {
	p.expect("{")
	for !p.is("}") && p.tok.kind != tEOF {
		switch {
		case p.accept("["):
			p.expr()
			p.expect("]")
			p.expect("=")
			p.expr()
		default:
			p.expr() // name = expr parses "name" as an expression first
			if p.accept("=") {
				p.expr()
			}
		}
		if !p.accept(",") && !p.accept(";") {
			break
		}
	}
	p.expect("}")
}
