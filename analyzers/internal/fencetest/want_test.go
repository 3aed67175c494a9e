package fencetest

import (
	"go/token"
	"strings"
	"testing"
)

func TestParseWant(t *testing.T) {
	tests := []struct {
		comment string
		want    []string // [analyzer=]pattern, in order
		wantErr string
	}{
		{comment: `// want "without a fencing token"`, want: []string{"without a fencing token"}},
		{comment: "// want `is held` \"and\"", want: []string{"is held", "and"}},
		{comment: `// want unfencedwrite:"without a fencing token"`, want: []string{"unfencedwrite=without a fencing token"}},
		{comment: "// want heldcheck:`only tells` weaktoken:\"is not\"", want: []string{"heldcheck=only tells", "weaktoken=is not"}},
		{comment: `/* want fencedirective:"fencelint" */`, want: []string{"fencedirective=fencelint"}},
		{comment: `// want unfencedwrite "x"`, wantErr: "':'"},
		{comment: `// want unfencedwrite:x`, wantErr: "string literal"},
		{comment: `// want unfencedwrite:"("`, wantErr: "missing closing"},
		{comment: `// want 42`, wantErr: "found INT"},
		{comment: `// want "unterminated`, wantErr: "not terminated"},
		{comment: `// want `, wantErr: "no \"REGEXP\""},
	}
	for _, tt := range tests {
		text, ok := WantText(tt.comment)
		if !ok {
			t.Errorf("WantText(%q) did not recognise a want comment", tt.comment)
			continue
		}
		pos := token.Position{Filename: "f.go", Line: 7}
		ws, err := ParseWant(pos, text)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseWant(%q): got error %v, want one containing %q", tt.comment, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseWant(%q): %v", tt.comment, err)
			continue
		}
		var got []string
		for _, w := range ws {
			if w.Pos != pos {
				t.Errorf("ParseWant(%q): item at %v, want %v", tt.comment, w.Pos, pos)
			}
			item := w.Re.String()
			if w.Analyzer != "" {
				item = w.Analyzer + "=" + item
			}
			got = append(got, item)
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("ParseWant(%q) = %v, want %v", tt.comment, got, tt.want)
		}
	}
}

func TestWantTextIgnoresOtherComments(t *testing.T) {
	for _, c := range []string{"// wanted: nothing", "//want x:\"y\"", "// Run wants a lock"} {
		if _, ok := WantText(c); ok {
			t.Errorf("WantText(%q) took a plain comment for an expectation", c)
		}
	}
}

func TestWantsMatchConsumesOnePerDiagnostic(t *testing.T) {
	pos := token.Position{Filename: "f.go", Line: 3}
	ws := &Wants{byLine: make(map[lineKey][]*wantState)}
	items, err := ParseWant(pos, `"token" "token" unfencedwrite:"token"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range items {
		ws.add(w)
	}
	other := pos
	other.Line++
	steps := []struct {
		pos      token.Position
		analyzer string
		message  string
		want     bool
	}{
		{pos, "", "no fencing token", true},
		{other, "", "no fencing token", false}, // another line
		{pos, "", "unrelated", false},          // no pattern matches
		{pos, "", "no fencing token", true},
		{pos, "", "no fencing token", false}, // both bare items used up
		{pos, "heldcheck", "no fencing token", false},
		{pos, "unfencedwrite", "no fencing token", true},
	}
	for i, s := range steps {
		if got := ws.Match(s.pos, s.analyzer, s.message); got != s.want {
			t.Errorf("step %d: Match(%v, %q, %q) = %v, want %v", i, s.pos, s.analyzer, s.message, got, s.want)
		}
	}
	if n := len(ws.Unmatched()); n != 0 {
		t.Errorf("%d expectations left unmatched, want 0", n)
	}
	if n := len(ws.All()); n != 3 {
		t.Errorf("All: %d expectations, want 3", n)
	}
}
