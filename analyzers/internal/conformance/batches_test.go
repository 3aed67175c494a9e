package conformance

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// A batch is a set of the module's packages loaded and analyzed together,
// as one program.
type batch struct {
	name  string   // the case directories, joined by '+'
	roots []string // import paths of the module's packages
	size  int      // the packages it loads, with every dependency
}

// maxBatchPackages bounds the packages (with dependencies) one batch
// loads; a case larger than that is a batch of its own. Measured under
// -race on 2 cores and 23 GB: the whole module as one program (1479
// packages, with the legacy module's 363 loaded beside it) peaked at 17.4
// GB of RSS; the largest case alone (heldchecks, 947) at 9.2 GB, the
// floor for batches of whole cases. At 1000, the cases pack into two
// batches (1001 and 941 packages, 1.3 times the whole module's loading)
// and the suite peaks at 12.0 GB with 1.45 times the CPU time; at 800
// into five (2.7 times the loading), for no lower peak.
const maxBatchPackages = 1000

// planBatches lists the module's packages (without types) and packs its
// cases into batches of at most maxBatchPackages packages, putting each
// case in the batch that its dependencies grow least, so that the
// libraries a batch shares are loaded and analyzed once.
func planBatches(t *testing.T, dir string, minRoots int) []*batch {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
		Dir:  dir,
		Env:  append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly"),
	}
	roots, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatalf("listing %s: %v", dir, err)
	}
	if len(roots) < minRoots {
		t.Fatalf("listed only %d packages in %s", len(roots), dir)
	}
	cases := connectedCases(roots)
	for _, c := range cases {
		c.deps = make(map[string]bool)
		packages.Visit(c.roots, nil, func(p *packages.Package) { c.deps[p.ID] = true })
	}
	packed := pack(cases, maxBatchPackages)
	batches := make([]*batch, len(packed))
	for i, pb := range packed {
		b := &batch{size: len(pb.deps)}
		var names []string
		for _, c := range pb.cases {
			names = append(names, c.name)
			for _, p := range c.roots {
				b.roots = append(b.roots, p.PkgPath)
			}
		}
		slices.Sort(names)
		slices.Sort(b.roots)
		b.name = strings.Join(names, "+")
		batches[i] = b
	}
	return batches
}

// pack packs cases into batches that load at most max packages (a case
// larger than that alone), largest case first, each into the batch its
// dependencies grow least.
func pack(cases []*caseUnit, max int) []*caseBatch {
	cases = slices.Clone(cases)
	slices.SortFunc(cases, func(x, y *caseUnit) int {
		return cmp.Or(cmp.Compare(len(y.deps), len(x.deps)), cmp.Compare(x.name, y.name))
	})
	var packed []*caseBatch
	for _, c := range cases {
		var best *caseBatch
		bestGrowth := 0
		for _, b := range packed {
			growth := 0
			for id := range c.deps {
				if !b.deps[id] {
					growth++
				}
			}
			if len(b.deps)+growth <= max && (best == nil || growth < bestGrowth) {
				best, bestGrowth = b, growth
			}
		}
		if best == nil {
			best = &caseBatch{deps: make(map[string]bool)}
			packed = append(packed, best)
		}
		best.cases = append(best.cases, c)
		maps.Copy(best.deps, c.deps)
	}
	return packed
}

// A caseUnit is one case of a module: the packages of one top-level
// directory, which may import each other but no other case's.
type caseUnit struct {
	name  string
	roots []*packages.Package
	deps  map[string]bool // IDs of the packages it loads
}

// A caseBatch is a batch being packed.
type caseBatch struct {
	cases []*caseUnit
	deps  map[string]bool
}

// connectedCases splits the module's packages into cases: the sets of
// packages that import each other, directly or through others of the
// module. A case is analyzed as one program, never split across batches.
func connectedCases(roots []*packages.Package) []*caseUnit {
	inModule := make(map[*packages.Package]bool)
	for _, p := range roots {
		inModule[p] = true
	}
	parent := make(map[*packages.Package]*packages.Package)
	var find func(p *packages.Package) *packages.Package
	find = func(p *packages.Package) *packages.Package {
		if q, ok := parent[p]; ok && q != p {
			r := find(q)
			parent[p] = r
			return r
		}
		return p
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		for _, imp := range p.Imports {
			if inModule[p] && inModule[imp] {
				parent[find(p)] = find(imp)
			}
		}
	})
	byRoot := make(map[*packages.Package]*caseUnit)
	var cases []*caseUnit
	for _, p := range roots {
		r := find(p)
		c := byRoot[r]
		if c == nil {
			c = new(caseUnit)
			byRoot[r] = c
			cases = append(cases, c)
		}
		c.roots = append(c.roots, p)
	}
	for _, c := range cases {
		c.name = commonDir(c.roots)
	}
	return cases
}

// commonDir names a case by the longest directory, relative to the
// module, that holds all its packages ("." for the module's root).
func commonDir(pkgs []*packages.Package) string {
	var common []string
	for i, p := range pkgs {
		rel := "."
		if p.Module != nil {
			rel = strings.TrimPrefix(strings.TrimPrefix(p.PkgPath, p.Module.Path), "/")
		}
		elems := strings.Split(rel, "/")
		if i == 0 {
			common = elems
			continue
		}
		n := 0
		for n < len(common) && n < len(elems) && common[n] == elems[n] {
			n++
		}
		common = common[:n]
	}
	if len(common) == 0 || common[0] == "" {
		return "."
	}
	return strings.Join(common, "/")
}

func TestPack(t *testing.T) {
	unit := func(name string, deps ...string) *caseUnit {
		c := &caseUnit{name: name, deps: make(map[string]bool)}
		for _, d := range deps {
			c.deps[d] = true
		}
		return c
	}
	cases := []*caseUnit{
		unit("redis1", "redis", "net", "r1"),
		unit("k8s", "k8s", "grpc", "net", "k1"),
		unit("redis2", "redis", "net", "r2"),
		unit("huge", "a", "b", "c", "d", "e", "f", "g"),
		unit("etcd", "etcd", "grpc", "net", "e1"),
	}
	packed := pack(cases, 6)
	var got []string
	for _, b := range packed {
		var names []string
		for _, c := range b.cases {
			names = append(names, c.name)
		}
		slices.Sort(names)
		got = append(got, fmt.Sprintf("%s(%d)", strings.Join(names, "+"), len(b.deps)))
	}
	// huge exceeds the budget and goes alone; k8s and etcd share grpc and
	// net, the redis cases share redis and net; every case is packed once.
	want := []string{"huge(7)", "etcd+k8s(6)", "redis1+redis2(4)"}
	if !slices.Equal(got, want) {
		t.Errorf("pack = %v, want %v", got, want)
	}
}
