package luascan_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzers/internal/luascan"
)

// FuzzParse checks that Parse never panics and that its report is
// consistent: calls in source order inside the script, the script's guard
// no stronger than any write's, Unknown exactly when there is a problem.
func FuzzParse(f *testing.F) {
	for _, src := range []string{redsyncDelete, redsyncTouch, redsyncTouchWithSetNX, redislockRefresh,
		redislockRelease, redislockPTTL, redislockObtain, fenceScript,
		"--[==[", "[[", "'\\", "\"\\u{110000}\"", "local x <const> = 1", "goto x ::x::", "a.b:c'd'{e}",
		"for i = 1, 2, 3 do break end", "repeat until true", "return ...", "function a.b:c() end"} {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s := luascan.Parse(src)
		if s.Unknown != (s.Problem != "") {
			t.Fatalf("Unknown %v with Problem %q", s.Unknown, s.Problem)
		}
		prev := -1
		for _, c := range s.Calls {
			if c.Pos <= prev || c.Pos >= len(src) {
				t.Fatalf("call at %d after %d in %d bytes", c.Pos, prev, len(src))
			}
			prev = c.Pos
			if (c.Write || c.Command == "") && s.Guard > c.Guard {
				t.Fatalf("script guard %v stronger than a write's %v", s.Guard, c.Guard)
			}
			if c.Write && !s.Writes {
				t.Fatal("a write in a script that does not write")
			}
		}
		if !s.Writes && s.Guard != luascan.None {
			t.Fatalf("guard %v without writes", s.Guard)
		}
	})
}
