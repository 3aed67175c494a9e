package lease

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// A builder computes one package's Model. It lives for one pass.
type builder struct {
	pass  *analysis.Pass
	ix    *index
	dirs  *directives
	funcs []*ssa.Function // source functions and their literals, in source order
	cfgs  *ctrlflow.CFGs  // which functions never return (controlFlow), for SSA
	model *Model
	// local holds what this package's own functions do, as the facts
	// exported for them say (roles from directives and wrappers, writes,
	// fenced-by-param): consulted before imported facts.
	local map[*types.Func][]analysis.Fact
	// cbFields holds the package's struct fields whose func values are
	// copied into a library callback (cbfields.go).
	cbFields map[*types.Var]*CallbackFieldFact
	// leaderFields holds the package's fields that cache an election's
	// leader value, with the election's system (cachedleader.go).
	leaderFields map[*types.Var]System
	// leaderFlags holds the bools that leader-election callbacks set to
	// true, by flagKey (checks.go): found before the roles, so that a
	// getter of one is a check.
	leaderFlags map[any]leaderFlag
	// lockNodes holds the fields that keep the path of a ZooKeeper node the
	// package claimed with the lock recipe (mirror.go).
	lockNodes map[*types.Var]bool
	// etcdLocks caches the keys of the package's hand-rolled etcd locks
	// (etcdtxnlock.go); nil until first asked.
	etcdLocks *[]ssa.Value
	// queueClaims caches, per function that puts a key unique to its
	// caller, whether that put is a place in a lock's queue (etcdtxnlock.go).
	queueClaims map[*ssa.Function]bool
	// keys caches the keys of the package's SET NX calls (lockKeys).
	keys *[]ssa.Value
	// findingKeys is set while lockKeys resolves the package's calls: a
	// Del is then not asked whether it deletes one (lockhelpers.go).
	findingKeys bool
	// gocronV1 holds, on first use, the package's gocron v1 schedulers
	// (gocronv1.go).
	gocronV1 *gocronV1
	// queues holds the types that take from a Redis list with a blocking
	// pop, with the keys they pop (redisqueue.go); nil until first asked.
	queues map[*types.TypeName][]ssa.Value
	// markers holds the SET NX calls that are markers, not locks
	// (redismarkers.go); nil until first asked.
	markers map[*ssa.CallCommon]bool
	// uniqueColls holds the MongoDB collections the package gives a
	// unique index, by mongoCollKey, with where (mongounique.go).
	uniqueColls map[any]token.Pos
	// steps numbers the pipeline each step function belongs to
	// (pipelines.go); nil when the package runs no pipeline.
	steps map[*ssa.Function]int
	// regions holds the lease state of every block (regions.go).
	regions *regions
	// routes caches the package's route registrations (middleware.go).
	routes *[]registration
	// writeCalls marks the calls already recorded as writes.
	writeCalls map[ssa.CallInstruction]bool
	// shaped caches the catalog rows made up for SQL-shaped interfaces.
	shaped map[*types.Func]*API
	// closureRoles holds the closures that wrap an acquire or a release.
	closureRoles map[*ssa.Function]lockRole
	// awaited caches, per value received from a channel, the acquire a
	// goroutine sent that value from (awaited.go).
	awaited map[ssa.Value]awaitedCall
	// localSQL says the program's only SQL databases are SQLite files of
	// its own node (localsql.go).
	localSQL bool
	// rowClaims caches, per function, its re-checks of rows it locked
	// (rowclaim.go).
	rowClaims map[*ssa.Function]rowClaims
	// rolesKnown is set once inferRoles has learned every wrapper's role.
	rolesKnown bool
	// sqlCache holds the SQL texts already read (parseSQL), sqlLockCache
	// what each call's SQL does to advisory locks (sqlLocksOf).
	sqlCache     map[sqlKey]*sqlscan.Script
	sqlLockCache map[*ssa.CallCommon]sqlLocks
	// leaseRowTables holds the tables the package takes lease rows of,
	// with the columns their claims write (leaserows.go); nil until
	// first asked.
	leaseRowTables map[string]map[string]bool
	// scriptRoles caches the lock role of Redis script calls (scriptRole).
	scriptRoles map[*ssa.CallCommon]Role
	// prog summarizes the whole program's implementations of interfaces,
	// in a standalone run (nil otherwise); dispatch caches the
	// implementations found for each interface method (dispatch.go).
	prog     *Program
	dispatch map[*types.Func][]dispatchTarget
	// reachable and converted serve reachableImpls: its answers, and the
	// package's types converted to interfaces.
	reachable map[string]reachableResult
	converted *[]*types.Named
	// replacing marks the dispatches whose facts ownFact is replacing by
	// the package's own implementations'. One of those may be a method
	// promoted from another package's embedded type whose fact was learned
	// through the same dispatch (a shared coordinator's method that calls
	// its store's interface, which the type embedding it implements too):
	// met again, that fact stands as it is, so the lookup ends.
	replacing map[string]bool
	// inProgress marks the functions whose CAS paths are being read
	// (casfence.go), so that a transaction nested in itself ends.
	inProgress map[*ssa.Function]int
	// tokens answers where token values come from (tokens.go).
	tokens *tokenFlow
	// fencegen is fencegen's generated API, if the package is its output.
	fencegen *fencegenAPI
	// assigns and embeds index, on first use, what the package assigns to
	// variables and fields and what it embeds (sqltext.go, sqlembed.go).
	assigns  *assignments
	memos    map[*ssa.Global]*memoFills // sqlmemo.go
	embeds   *embeds
	grammars map[string]*builderGrammar
	// schemas holds, on first use, the tables the package's and its
	// dependencies' embedded migrations define (schema.go); keyed the
	// calls whose INSERT a unique key makes a create-if-absent (a
	// natural key, or a goctl model's: goctl.go).
	schemas map[string]*SchemaTable
	keyed   map[ssa.CallInstruction]string
	// files is the schema the driver read from SQL files the code does
	// not embed (ReadSchemaFiles), or nil.
	files *SchemaFact
	// flags caches, on first use, how the package writes each flag a
	// once-guard tests (oncestart.go).
	flags map[types.Object]flagWriteSet
}

// build computes the model of pass's package.
func build(pass *analysis.Pass, prog *Program, files *SchemaFact) *Model {
	m, _ := buildWithBuilder(pass, prog, files)
	return m
}

// buildWithBuilder computes the model of pass's package and returns the
// builder too, for tests that probe its passes.
func buildWithBuilder(pass *analysis.Pass, prog *Program, files *SchemaFact) (*Model, *builder) {
	localSQL := prog != nil && prog.localSQL
	if prog != nil && prog.seed {
		prog = nil // the first summary pass: it knows no implementation yet
	}
	b := &builder{
		pass:     pass,
		prog:     prog,
		localSQL: localSQL,
		files:    files,
		ix:       newIndex(),
		dirs:     parseDirectives(pass),
		model:    &Model{reportSuppressed: reportSuppressed(pass.Analyzer)},
		local:    make(map[*types.Func][]analysis.Fact),

		cbFields:     make(map[*types.Var]*CallbackFieldFact),
		leaderFields: make(map[*types.Var]System),
		lockNodes:    make(map[*types.Var]bool),

		writeCalls: make(map[ssa.CallInstruction]bool),
		shaped:     make(map[*types.Func]*API),

		closureRoles: make(map[*ssa.Function]lockRole),
		awaited:      make(map[ssa.Value]awaitedCall),
		sqlCache:     make(map[sqlKey]*sqlscan.Script),
		scriptRoles:  make(map[*ssa.CallCommon]Role),
		sqlLockCache: make(map[*ssa.CallCommon]sqlLocks),
		dispatch:     make(map[*types.Func][]dispatchTarget),
		reachable:    make(map[string]reachableResult),
		replacing:    make(map[string]bool),
		inProgress:   make(map[*ssa.Function]int),
		keyed:        make(map[ssa.CallInstruction]string),
	}
	b.model.directives = b.dirs
	b.tokens = &tokenFlow{b: b}
	b.cfgs = controlFlow(pass)
	b.exportSchema() // for importers, even where this package has nothing to judge
	b.exportGoParams()
	b.exportRunParams()
	b.exportKubeNews()
	b.exportTexts()
	b.exportBoilerQueries()
	b.exportScripts()
	if !b.relevant() {
		b.model.Problems = b.dirs.problems
		b.exportFormatters()
		return b.model, b
	}
	b.funcs = buildSSA(pass, b.cfgs)
	b.fencegenFacts() // first: the package's own callers see the API's roles
	b.exportSessionCtors()
	b.exportCtxSessions()
	b.deriveFormatters()
	b.deriveSQLHelpers()
	b.findLeaderFields()
	b.leaderFlags = b.callbackLeaderFlags()
	b.findLockNodes()
	b.inferRoles()
	b.rolesKnown = true
	b.exportKeyCtorFacts()
	b.findChecks()
	b.findCallbackFields()
	b.findLeases()
	b.exportHandOffs()
	b.regionLeaderFlagChecks()
	b.regionNotices()
	b.exportLeaderSets()
	b.dropUnleasedChecks()
	b.exportLookupFacts()
	b.findWrites()
	b.markHeld()
	b.markLocalSQL()
	b.deriveWriteFacts()
	b.exportTemplateFacts()
	b.exportCallbackFacts()
	b.deriveCheckParams()
	b.checkParamChecks()
	b.markGuards()
	b.findRenewals()
	b.markLiveness()
	b.findSignals()
	b.exportSignalFacts()
	b.findGoroutines()
	b.exportTokenFacts()
	b.exportFacts()
	b.model.Problems = append(b.dirs.problems, b.unusedIgnores()...)
	if !flagSet(pass.Analyzer, "testwrites") {
		b.dropTestWrites()
	}
	b.model.answers = b.answer()
	return b.model, b
}

// dropTestWrites forgets the writes made in _test.go files: they set up or
// inspect test fixtures (the lease analyzer's -testwrites flag keeps them).
// The facts exported for the package's functions are not affected.
func (b *builder) dropTestWrites() {
	inTest := func(w *Write) bool {
		f := b.pass.Fset.File(w.Pos)
		return f != nil && strings.HasSuffix(f.Name(), "_test.go")
	}
	b.model.Writes = slices.DeleteFunc(b.model.Writes, inTest)
	for _, c := range b.model.Checks {
		c.Guarded = slices.DeleteFunc(c.Guarded, inTest)
	}
}

// relevant reports whether the package can hold a lease or write to a store:
// it imports a catalogued package or one that exported lease facts, or a
// Kubernetes clientset and calls an Update, or it uses a fencelint
// directive. Everything else is skipped before SSA is built,
// which is most of the cost.
func (b *builder) relevant() bool {
	if len(b.dirs.roles) > 0 || len(b.dirs.ignores) > 0 {
		return true
	}
	client := false
	for _, imp := range b.pass.Pkg.Imports() {
		if b.ix.knowsPath(imp.Path()) || b.hasFacts(imp) {
			return true
		}
		client = client || b.ix.knowsClient(imp.Path())
	}
	if client && b.callsKubeUpdate() {
		return true
	}
	return b.usesKnownAPI() || b.prog.relevantTo(b.pass.Pkg)
}

// usesKnownAPI reports whether the package calls a catalogued package's
// function or method without importing it: through a type alias another
// package of the application declares (type Cmdable = redis.Cmdable, a
// client package that re-exports the library's types for the rest).
func (b *builder) usesKnownAPI() bool {
	for _, obj := range b.pass.TypesInfo.Uses {
		if f, ok := obj.(*types.Func); ok && f.Pkg() != nil && f.Pkg() != b.pass.Pkg && b.ix.knowsPath(f.Pkg().Path()) {
			return true
		}
	}
	return false
}

// hasFacts reports whether pkg exported any lease fact.
func (b *builder) hasFacts(pkg *types.Package) bool {
	var f PackageFact
	return b.pass.ImportPackageFact(pkg, &f)
}

// controlFlow runs the ctrlflow analysis on pass's package within the lease
// pass and returns its result, which says which functions never return.
// ctrlflow's facts (FactTypes lists their type) are exported and imported
// through the lease pass, so they flow between packages as when ctrlflow
// runs as a pass of its own. Requiring ctrlflow.Analyzer instead would
// have a driver keep, for every package until the end of the run, the
// control-flow graphs and the inspector ctrlflow reads (the checker keeps
// every pass's result): a fifth of a standalone run's memory.
func controlFlow(pass *analysis.Pass) *ctrlflow.CFGs {
	flow := *pass
	flow.Analyzer = ctrlflow.Analyzer
	flow.ResultOf = map[*analysis.Analyzer]any{inspect.Analyzer: inspector.New(pass.Files)}
	cfgs, err := ctrlflow.Analyzer.Run(&flow)
	if err != nil {
		panic(err) // ctrlflow fails on no package; run would make this an analysis error
	}
	return cfgs.(*ctrlflow.CFGs)
}

// buildSSA builds SSA for pass's package alone, as buildssa does, and returns
// its source functions with their literals, in source order. cfgs says
// which functions never return.
func buildSSA(pass *analysis.Pass, cfgs *ctrlflow.CFGs) []*ssa.Function {
	prog := ssa.NewProgram(pass.Fset, 0)
	prog.SetNoReturn(cfgs.NoReturn)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()

	var funcs []*ssa.Function
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		funcs = append(funcs, f)
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if f := prog.FuncValue(pass.TypesInfo.Defs[fd.Name].(*types.Func)); f != nil {
				add(f)
			}
		}
	}
	if init := pkg.Func("init"); init != nil {
		add(init) // closures in package-level variable initializers
	}
	return funcs
}

// calls yields every call instruction (call, go, defer) of the package's
// functions, with its function.
func (b *builder) calls(yield func(fn *ssa.Function, call ssa.CallInstruction) bool) {
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if !yield(fn, call) {
						return
					}
				}
			}
		}
	}
}

// calleeFunc returns the declared function or method a call invokes, if it
// is static or an interface method call.
func calleeFunc(call *ssa.CallCommon) *types.Func {
	if call.IsInvoke() {
		return call.Method
	}
	if f := call.StaticCallee(); f != nil {
		if obj, ok := f.Object().(*types.Func); ok {
			return obj
		}
	}
	return nil
}

// shortPos writes pos as its file's base name and line, "main.go:73", as
// diagnostics and facts name a place.
func (b *builder) shortPos(pos token.Pos) string {
	p := b.pass.Fset.Position(pos)
	return filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}
