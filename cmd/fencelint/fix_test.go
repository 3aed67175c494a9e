package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

const fixSource = `package p

func f() {
	put("k", "v")
	put("k2", "v2")
	log("done")
}
`

// fixFindings parses fixSource in a temp file and returns it and findings
// on it: the first two calls with fixes (the second twice, overlapping),
// the last with none.
func fixFindings(t *testing.T) (string, []finding) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(file, []byte(fixSource), 0o640); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	tf := fset.File(f.Pos())
	at := func(s string) token.Pos { return tf.Pos(strings.Index(fixSource, s)) }
	mk := func(call, replacement string) finding {
		d := analysis.Diagnostic{Pos: at(call), Message: "unfenced " + call}
		if replacement != "" {
			d.SuggestedFixes = []analysis.SuggestedFix{{Message: "fence it", TextEdits: []analysis.TextEdit{
				{Pos: at(call), End: at(call) + token.Pos(len(call)), NewText: []byte(replacement)}}}}
		}
		return finding{check: "unfencedwrite", diag: d, fset: fset, pos: fset.Position(d.Pos)}
	}
	return file, []finding{
		mk(`put("k", "v")`, `txn(  "k","v" )`), // gofmt tidies the fixed file
		mk(`put("k2", "v2")`, `txn("k2", "v2")`),
		mk(`put("k2", "v2")`, `other("k2", "v2")`), // overlaps the fix above
		mk(`put("k2", "v2")`, `txn("k2", "v2")`),   // the same fix again (a test variant)
		mk(`log("done")`, ""),
	}
}

func TestApplyFixes(t *testing.T) {
	file, findings := fixFindings(t)
	var out bytes.Buffer
	remaining, err := applyFixes(findings, false, &out)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, f := range remaining {
		msgs = append(msgs, f.diag.Message)
	}
	if got, want := strings.Join(msgs, "; "), `unfenced put("k2", "v2"); unfenced log("done")`; got != want {
		t.Errorf("remaining findings: %s; want %s", got, want)
	}
	data, _ := os.ReadFile(file)
	want := strings.NewReplacer(`put("k", "v")`, `txn("k", "v")`, `put("k2", "v2")`, `txn("k2", "v2")`).Replace(fixSource)
	if string(data) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", data, want)
	}
	if info, _ := os.Stat(file); info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", info.Mode())
	}
	if out.Len() != 0 {
		t.Errorf("-fix printed %q", out.String())
	}
}

func TestApplyFixesDiff(t *testing.T) {
	file, findings := fixFindings(t)
	var out bytes.Buffer
	if _, err := applyFixes(findings, true, &out); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(file); string(data) != fixSource {
		t.Errorf("-diff changed the file:\n%s", data)
	}
	name := filepath.ToSlash(file)
	want := "--- a/" + name + "\n+++ b/" + name + "\n" + `@@ -1,7 +1,7 @@
 package p
 
 func f() {
-	put("k", "v")
-	put("k2", "v2")
+	txn("k", "v")
+	txn("k2", "v2")
 	log("done")
 }
`
	if out.String() != want {
		t.Errorf("diff:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestUnifiedDiffHunks(t *testing.T) {
	var a, b []string
	for i := range 30 {
		line := "line " + string(rune('a'+i%26)) + "\n"
		a = append(a, line)
		if i == 2 {
			line = "changed\n"
		}
		if i == 25 {
			b = append(b, "added\n")
		}
		b = append(b, line)
	}
	got := unifiedDiff("a", "b", strings.Join(a, ""), strings.Join(b, ""))
	want := `--- a
+++ b
@@ -1,6 +1,6 @@
 line a
 line b
-line c
+changed
 line d
 line e
 line f
@@ -23,6 +23,7 @@
 line w
 line x
 line y
+added
 line z
 line a
 line b
`
	if got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	if d := unifiedDiff("a", "b", "x\n", "x\n"); d != "" {
		t.Errorf("diff of equal texts: %q", d)
	}
}
