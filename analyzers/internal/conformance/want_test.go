package conformance

import (
	"go/token"
	"strings"
	"testing"
)

func TestParseWant(t *testing.T) {
	tests := []struct {
		comment string
		want    []string // analyzer=pattern, in order
		wantErr string
	}{
		{comment: `// want unfencedwrite:"without a fencing token"`, want: []string{"unfencedwrite=without a fencing token"}},
		{comment: "// want heldcheck:`only tells` weaktoken:\"is not\"", want: []string{"heldcheck=only tells", "weaktoken=is not"}},
		{comment: `/* want fencedirective:"fencelint" */`, want: []string{"fencedirective=fencelint"}},
		{comment: `// want "no analyzer"`, wantErr: "ANALYZER"},
		{comment: `// want unfencedwrite "x"`, wantErr: "':'"},
		{comment: `// want unfencedwrite:x`, wantErr: "string literal"},
		{comment: `// want unfencedwrite:"("`, wantErr: "missing closing"},
		{comment: `// want `, wantErr: "no ANALYZER"},
	}
	for _, tt := range tests {
		text, ok := wantText(tt.comment)
		if !ok {
			t.Errorf("wantText(%q) did not recognise a want comment", tt.comment)
			continue
		}
		es, err := parseWant(token.Position{Filename: "f.go", Line: 1}, text)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseWant(%q): got error %v, want one containing %q", tt.comment, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseWant(%q): %v", tt.comment, err)
			continue
		}
		var got []string
		for _, e := range es {
			got = append(got, e.analyzer+"="+e.re.String())
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("parseWant(%q) = %v, want %v", tt.comment, got, tt.want)
		}
	}
}

func TestWantTextIgnoresOtherComments(t *testing.T) {
	for _, c := range []string{"// wanted: nothing", "//want x:\"y\"", "// Run wants a lock"} {
		if _, ok := wantText(c); ok {
			t.Errorf("wantText(%q) took a plain comment for an expectation", c)
		}
	}
}
