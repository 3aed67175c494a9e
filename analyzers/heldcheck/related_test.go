package heldcheck

import (
	"go/token"
	"testing"

	"github.com/fencelint/fencelint/analyzers/lease"
)

// TestRelated checks that a check's finding points at every write it
// guards but the first, which its message names, and at the writes a
// guarded call reaches.
func TestRelated(t *testing.T) {
	fset := token.NewFileSet()
	f := fset.AddFile("/src/app/leader.go", -1, 100)
	f.SetLinesForContent([]byte("a\nb\nc\nd\ne\nf\ng\nh\n"))
	files := map[string]*token.File{f.Name(): f}
	ws := []*lease.Write{
		{Pos: f.LineStart(2), What: "DB.Exec (UPDATE a)"},
		{Pos: f.LineStart(3), What: "Store.Save", Via: "Store.Save makes 2",
			Sites: []lease.Site{{What: "DB.Exec (UPDATE b)", File: f.Name(), Line: 5, Column: 2}, {What: "DB.Exec (UPDATE c)", File: f.Name(), Line: 7, Column: 1}}},
	}
	got := related(ws, files)
	want := []struct {
		line int
		msg  string
	}{
		{3, "also guarded, unfenced: Store.Save"},
		{5, "reached unfenced: DB.Exec (UPDATE b)"},
		{7, "reached unfenced: DB.Exec (UPDATE c)"},
	}
	if len(got) != len(want) {
		t.Fatalf("related = %d positions, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if line := fset.Position(got[i].Pos).Line; line != w.line || got[i].Message != w.msg {
			t.Errorf("related[%d] = line %d %q, want line %d %q", i, line, got[i].Message, w.line, w.msg)
		}
	}
}
