package lease

import (
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// The writes a call reaches.
//
// A WritesFact names one write for the caller's diagnostic. A region that
// runs a whole job through one call (a sync's pipeline in an errgroup, a
// worker's Run) reaches many writes, and the one named stood for all of
// them. When it was the least of them (an audit row, a definition written
// again from the config), the writes that lose data went unnamed, and a
// reader who checked the named one and found it harmless dismissed the
// finding. The finding stays one, at the call in the region: one lease
// lost, one fix there (a fence handed down, or the work stopped).
//
// So a function that makes more than one unfenced write on every call
// lists them all as its fact's Sites. Each is named where the program
// makes it nearest to the store. That is the function's own store call
// ("Pool.Exec at progress.go:39"), or its call of a function that makes
// just one ("StateStore.SaveCursor at syncer.go:94"). A callee that makes
// several passes its own Sites up instead, and unfencedwrite's message
// names them all.
//
// A write that only adds rows (an audit event) is left out when another
// replaces data: its harm is a duplicate row, and the list is there to
// name the writes that lose the next holder's data. A call through an
// interface is named at the call, not at the writes of the implementation
// the program's summary resolved it to: the caller's code is where it
// chooses to write, and the implementations' writes are theirs. When
// several implementations write one store and the call runs whichever it
// is handed (the workers a leader starts through one Worker interface),
// the call is named at each one's writes instead, and the message says
// through how many implementations: naming the call would name the first
// worker's write for all of them (reachSites).
//
// A write on a branch of a parameter (`if key == "" { return }` before
// it), or one a callee makes only for some of its arguments (Cases), is
// listed with what the parameters must be to reach it (Site.Needs): each
// call drops the sites its constant arguments rule out and restates the
// rest on its own parameters (bindSites), as it does the fact's Cases
// (paramconds.go). A call that cannot bind them (a handler handed to a
// helper that runs it) keeps every site: it may reach any.
//
// Each site keeps its full position, so the caller's finding can point at
// it as a related position (Site.Pos), one a reader can jump to, even in
// another package: the fact carries it as text, which any driver can
// encode, and a run that parsed the file (a standalone run over the
// program) turns it back into a position.

// A Site is an unfenced write a call reaches, where the program makes it
// nearest the store.
type Site struct {
	What   string // what is written: "StateStore.SaveCursor"
	File   string // the file's full name
	Line   int
	Column int
	Needs  []ParamCond // what the function's parameters must be to reach it
}

// samePlace reports whether s and t name the same write.
func (s Site) samePlace(t Site) bool {
	return s.What == t.What && s.File == t.File && s.Line == t.Line && s.Column == t.Column
}

// sameSite reports whether s and t are the same site, needs and all.
func sameSite(s, t Site) bool {
	return s.samePlace(t) && slices.Equal(s.Needs, t.Needs)
}

// sameSites reports whether two lists of sites are the same.
func sameSites(x, y []Site) bool {
	return slices.EqualFunc(x, y, sameSite)
}

// String names the site as a diagnostic does: "StateStore.SaveCursor at
// syncer.go:94".
func (s Site) String() string {
	return s.What + " at " + filepath.Base(s.File) + ":" + strconv.Itoa(s.Line)
}

// Pos returns the site's position in pass's file set, or token.NoPos when
// the run did not parse its file (go vet analyzes a package alone).
// files indexes the set's files by name (FilesByName), built once for
// the many sites of a package's findings.
func (s Site) Pos(files map[string]*token.File) token.Pos {
	f := files[s.File]
	if f == nil || s.Line < 1 || s.Line > f.LineCount() {
		return token.NoPos
	}
	start := f.LineStart(s.Line)
	if offset := f.Offset(start) + s.Column - 1; s.Column > 1 && offset < f.Size() {
		return f.Pos(offset)
	}
	return start
}

// FilesByName indexes the files of pass's file set by name, for Site.Pos.
func FilesByName(pass *analysis.Pass) map[string]*token.File {
	files := make(map[string]*token.File)
	pass.Fset.Iterate(func(f *token.File) bool {
		if _, dup := files[f.Name()]; !dup {
			files[f.Name()] = f
		}
		return true
	})
	return files
}

// SitesNote names every unfenced write a call reaches when it reaches more
// than one ("; it reaches 3 unfenced writes: ...", "; it reaches 9
// unfenced writes through 8 implementations: ..."), or returns "": each
// needs its fence, and the one Via names stands for them only as the
// first. unfencedwrite and heldcheck append it to Via.
func (w *Write) SitesNote() string {
	if len(w.Sites) < 2 {
		return ""
	}
	count := fmt.Sprint(len(w.Sites))
	if len(w.Sites) >= MaxWriteSites {
		count = "at least " + count
	}
	names := make([]string, len(w.Sites))
	for i, site := range w.Sites {
		names[i] = site.String()
	}
	through := ""
	if w.implSites >= 2 {
		through = fmt.Sprintf(" through %d implementations", w.implSites)
	}
	return fmt.Sprintf("; it reaches %s unfenced writes%s: %s", count, through, strings.Join(names, ", "))
}

// SiteRelated points at each unfenced write w, a call, reaches (SitesNote
// lists them), where the run has parsed the site's file; files is
// FilesByName's index.
func (w *Write) SiteRelated(files map[string]*token.File) []analysis.RelatedInformation {
	if len(w.Sites) < 2 {
		return nil
	}
	var out []analysis.RelatedInformation
	for _, site := range w.Sites {
		if pos := site.Pos(files); pos.IsValid() {
			out = append(out, analysis.RelatedInformation{Pos: pos, Message: "reached unfenced: " + site.What})
		}
	}
	return out
}

// MaxWriteSites bounds the Sites a fact keeps; a longer list is cut (the
// diagnostic says "at least").
const MaxWriteSites = 24

// siteList gathers the writes a message lists: each once, and at most
// MaxWriteSites of them.
type siteList []Site

// A write reached on two paths keeps the needs both share: it is
// reached when either path's needs hold.
func (l *siteList) add(sites ...Site) {
	for _, site := range sites {
		i := slices.IndexFunc(*l, site.samePlace)
		switch {
		case i >= 0:
			(*l)[i].Needs = commonConds((*l)[i].Needs, site.Needs)
		case len(*l) < MaxWriteSites:
			*l = append(*l, site)
		}
	}
}

// casesNeeds returns what every one of cases needs: a call reaches a
// write when its arguments reach any of them.
func casesNeeds(cases []WriteCase) []ParamCond {
	needs := cases[0].Needs
	for _, c := range cases[1:] {
		needs = commonConds(needs, c.Needs)
	}
	return needs
}

// commonConds returns the conditions x and y share, in a new slice when
// it drops any.
func commonConds(x, y []ParamCond) []ParamCond {
	var out []ParamCond
	for _, c := range x {
		if slices.Contains(y, c) {
			out = append(out, c)
		}
	}
	if len(out) == len(x) {
		return x
	}
	return out
}

// callSites returns the unfenced writes a call of a function with fact wf
// can make, for a caller that lists them: its Sites (each with what it
// needs, bound at the call), or the one write the fact names. nil when the
// fact cannot list them: it has none, its one write depends on the
// caller's arguments (Cases) or its writes are made once per receiver
// (OnceRecv), or its write has no known place.
func callSites(wf *WritesFact) []Site {
	switch {
	case wf == nil || wf.OnceRecv || wf.Site.File == "":
		return nil
	case len(wf.Sites) > 0:
		return wf.Sites
	case wf.Cases != nil:
		return nil
	}
	return []Site{wf.Site}
}

// writeSites returns the Sites of a function's WritesFact, from its writes
// in order: nil when it makes one write itself and calls nothing that
// makes more. Writes that only add rows are left out when another
// replaces data, so one may be left. impls, when 2 or more, is the most
// implementations of an interface method whose writes the list takes in
// (WritesFact.Implementations).
func (b *builder) writeSites(writes []*Write) (sites []Site, impls int) {
	var out siteList
	replaces := slices.ContainsFunc(writes, func(w *Write) bool { return !w.Append && b.everyCallWrite(w) })
	// A call through an interface is a site of its own: the application's
	// call names what it does, and the implementation's lines are often
	// one generic store that many calls share. Only a region's own call
	// through an interface points into the implementation (reachSites),
	// and so does one that carries each implementation's writes (a
	// worker's Reconcile): naming it would name one worker's for all.
	// A function whose one write is such a call is a step on the way to
	// it (a periodic worker's Work calling its service): its callers'
	// findings name that call, and list what the call reaches, when one
	// implementation writes (of several, which one main wires is not
	// known: listing the one the message names would point every caller
	// at one backend's code).
	made, deep := 0, false
	var first *Write
	for _, w := range byPos(writes) {
		if !b.unfencedCase(w) {
			continue
		}
		made++
		if first == nil {
			first = w
		}
		if replaces && w.Append {
			continue
		}
		reach := b.writeReach(w)
		if len(w.Sites) > 0 && (w.Call == nil || !w.Call.Common().IsInvoke() || w.eachImpl) {
			deep = true
			impls = max(impls, w.implSites)
			for _, site := range w.Sites {
				site.Needs = unionConds(site.Needs, reach)
				out.add(site)
			}
			continue
		}
		site := b.siteOf(w)
		if w.cases != nil && !w.casesMet {
			reach = unionConds(reach, casesNeeds(w.cases))
		}
		site.Needs = reach
		out.add(site)
	}
	switch {
	case made == 1 && !deep && len(first.Sites) > 1 && b.soleWriter(first):
		return first.Sites, first.implSites // through the interface: what its call reaches
	case made < 2 && !deep:
		return nil, 0 // its one write: a caller names its call
	}
	return out, impls
}

// soleWriter reports whether w, a call through an interface, runs the one
// implementation of the method that writes on every call.
func (b *builder) soleWriter(w *Write) bool {
	writers := 0
	for _, t := range b.dispatchTargets(w.Call.Common().Method) {
		if b.everyCallWriter(t) != nil {
			writers++
		}
	}
	return writers == 1
}

// siteOf returns w, a write the package makes, as a Site.
func (b *builder) siteOf(w *Write) Site {
	p := b.pass.Fset.Position(w.Pos)
	return Site{What: w.What, File: p.Filename, Line: p.Line, Column: p.Column}
}

// everyCallWrite reports whether w is a plain unfenced write (unfencedCase)
// that every call of its function reaches: no branch on a parameter leads
// to it, and its callee's fact, if it has one, has no Cases or the call's
// constant arguments meet the first case's conditions.
func (b *builder) everyCallWrite(w *Write) bool {
	return b.unfencedCase(w) && (w.cases == nil || w.casesMet) && len(b.writeReach(w)) == 0
}

// factNamedWrite returns the write a function's WritesFact names: first,
// its first plain unfenced write, unless that write only adds rows (an
// audit event, a history row) and another that every call reaches
// replaces data, the first such. The fact names a write that loses data
// when a stale holder makes it, not the one that happens to come first.
func (b *builder) factNamedWrite(first *Write, writes []*Write) *Write {
	if !first.Append {
		return first
	}
	for _, w := range byPos(writes) {
		if !w.Append && b.everyCallWrite(w) {
			return w
		}
	}
	return first
}

// byPos returns writes in the order of their positions, in a new slice:
// the model's list is in that order only once a round of fact writes has
// sorted it.
func byPos(writes []*Write) []*Write {
	return slices.SortedStableFunc(slices.Values(writes), func(x, y *Write) int { return int(x.Pos - y.Pos) })
}

// refreshSites reads again the Sites of the calls recorded as writes: the
// callee's fact may have grown since (a helper of the package whose own
// callees gained facts in a later round), as refreshCases does for Cases.
func (b *builder) refreshSites() {
	for _, w := range b.model.Writes {
		if w.sitesOf == nil {
			continue
		}
		var wf WritesFact
		if b.sitesFact(w, &wf) {
			w.reachSites(&wf, w.sitesArgs)
		}
		if sites := b.stepSites(w.Call, w.steps); sites != nil {
			w.Sites = sites
		}
	}
}

// sitesFact reads again the fact w's Sites come from: a call through an
// interface as the call was resolved, by its receiver's interface
// (callWritesFact), not by the method's every implementation.
func (b *builder) sitesFact(w *Write, wf *WritesFact) bool {
	if w.Call != nil && w.Call.Common().IsInvoke() && w.Call.Common().Method == w.sitesOf {
		return b.callWritesFact(w.Call, w.sitesOf, wf)
	}
	return b.fact(w.sitesOf, wf)
}

// reachSites sets the Sites w, a write that runs a function with fact wf,
// carries, those its arguments can reach (bindSites): args is the call
// whose arguments are that function's, or nil when w hands it to a helper
// that runs it with its own. A call through an interface carries those of
// the implementation its message names (targetsFact), or, when several
// implementations write and the call's receiver is not a field, each
// one's (WritesFact.EachImpl). A field holds a dependency configured
// once, one implementation per deployment (a store, an applier); a value
// handed in or ranged over may be any of them, and a loop runs them all.
func (w *Write) reachSites(wf *WritesFact, args ssa.CallInstruction) {
	sites := wf.Sites
	w.implSites, w.eachImpl, w.sitesArgs = wf.Implementations, false, args
	if len(wf.EachImpl) > 0 && w.Call != nil && w.Call.Common().IsInvoke() && !loadedFromField(w.Call.Common().Value) {
		sites, w.implSites, w.eachImpl = wf.EachImpl, wf.EachImplOf, true
	}
	w.Sites = bindSites(w.Fn, args, sites)
}

// bindSites returns the sites that call, made in fn, can reach, with what
// they need restated on fn's parameters, in a new slice when any needs
// something. With no call to bind them, every site is kept and needs
// nothing the caller can state.
func bindSites(fn *ssa.Function, call ssa.CallInstruction, sites []Site) []Site {
	if !slices.ContainsFunc(sites, func(s Site) bool { return len(s.Needs) > 0 }) {
		return sites
	}
	var out []Site
	for _, site := range sites {
		if needs, ok := bindNeeds(fn, call, site.Needs); ok {
			site.Needs = needs
			out = append(out, site)
		}
	}
	return out
}

// bindNeeds restates needs, conditions on the parameters of call's
// callee, on fn's (bindCond), or reports false when the call's constant
// arguments refute one. With no call, nothing is refuted and nothing can
// be restated.
func bindNeeds(fn *ssa.Function, call ssa.CallInstruction, needs []ParamCond) ([]ParamCond, bool) {
	if call == nil {
		return nil, true
	}
	var out []ParamCond
	for _, cond := range needs {
		bound, ok, _ := bindCond(fn, call, cond)
		if !ok {
			return nil, false
		}
		out = unionConds(out, bound)
	}
	return out, true
}

// loadedFromField reports whether v is read from a struct field
// (s.store, c.cfg.Backend).
func loadedFromField(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Field:
		return true
	case *ssa.UnOp:
		_, ok := v.X.(*ssa.FieldAddr)
		return ok && v.Op == token.MUL
	}
	return false
}
