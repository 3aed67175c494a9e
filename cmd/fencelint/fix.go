package main

import (
	"bytes"
	"cmp"
	"fmt"
	"go/format"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// An edit replaces the bytes [start, end) of a file.
type edit struct {
	start, end int
	text       string
}

// applyFixes applies the first suggested fix of each finding that has one.
// A fix whose edits overlap those of a fix already taken is left out, and
// its finding remains. With diffOnly it changes no file and prints the
// fixes as a unified diff on w instead. It returns the findings that
// remain: those with no fix applied.
func applyFixes(findings []finding, diffOnly bool, w io.Writer) (remaining []finding, err error) {
	edits := make(map[string][]edit) // by file
	for _, f := range findings {
		if !takeFix(f, edits) {
			remaining = append(remaining, f)
		}
	}
	cwd, _ := os.Getwd()
	for _, file := range slices.Sorted(maps.Keys(edits)) {
		old, err := os.ReadFile(file)
		if err != nil {
			return remaining, err
		}
		fixed, err := applyEdits(old, edits[file])
		if err != nil {
			return remaining, fmt.Errorf("%s: the suggested fixes do not apply: %v", file, err)
		}
		if formatted, err := format.Source(fixed); err == nil {
			fixed = formatted
		} else {
			return remaining, fmt.Errorf("%s: the fixed file does not parse, so it is left as it was (please report it): %v", file, err)
		}
		if diffOnly {
			name := filepath.ToSlash(relative(cwd, file))
			io.WriteString(w, unifiedDiff("a/"+name, "b/"+name, string(old), string(fixed)))
			continue
		}
		if err := writeFileAtomic(file, fixed); err != nil {
			return remaining, err
		}
	}
	return remaining, nil
}

// takeFix adds the edits of f's first suggested fix to edits if none of
// them overlaps an edit already there, and reports whether it did. An edit
// already taken as is (a file analyzed in a package and its test variant)
// counts as taken.
func takeFix(f finding, edits map[string][]edit) bool {
	if len(f.diag.SuggestedFixes) == 0 {
		return false
	}
	byFile := make(map[string][]edit)
	for _, te := range f.diag.SuggestedFixes[0].TextEdits {
		tf := f.fset.File(te.Pos)
		if tf == nil {
			return false
		}
		end := te.End
		if !end.IsValid() {
			end = te.Pos
		}
		e := edit{start: tf.Offset(te.Pos), end: tf.Offset(end), text: string(te.NewText)}
		for _, have := range edits[tf.Name()] {
			if have != e && have.start < e.end && e.start < have.end || have != e && have.start == e.start && e.start == e.end {
				return false
			}
		}
		if !slices.Contains(edits[tf.Name()], e) {
			byFile[tf.Name()] = append(byFile[tf.Name()], e)
		}
	}
	for file, es := range byFile {
		edits[file] = append(edits[file], es...)
	}
	return true
}

// applyEdits returns src with the non-overlapping edits applied.
func applyEdits(src []byte, edits []edit) ([]byte, error) {
	edits = slices.SortedFunc(slices.Values(edits), func(a, b edit) int { return cmp.Compare(a.start, b.start) })
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.start < last || e.end > len(src) || e.start > e.end {
			return nil, fmt.Errorf("edit [%d,%d) out of range or overlapping", e.start, e.end)
		}
		out.Write(src[last:e.start])
		out.WriteString(e.text)
		last = e.end
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}

// writeFileAtomic replaces file's content with data, keeping its mode; a
// reader sees the old content or the new, never half of it.
func writeFileAtomic(file string, data []byte) error {
	info, err := os.Stat(file)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".fencelint-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// unifiedDiff returns the unified diff (three lines of context) that turns
// a, named oldName, into b, named newName; "" if they are equal.
func unifiedDiff(oldName, newName, a, b string) string {
	if a == b {
		return ""
	}
	ops := diffLines(splitLines(a), splitLines(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	const context = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from context lines before this change to context lines
		// after the last change closer than 2*context to the previous one.
		start := max(0, i-context)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j + 1
			} else if j-end >= 2*context {
				break
			}
		}
		end = min(len(ops), end+context)
		oldStart, newStart := ops[start].oldLine, ops[start].newLine
		var oldCount, newCount int
		var body strings.Builder
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				oldCount++
			}
			if op.kind != '-' {
				newCount++
			}
			body.WriteByte(op.kind)
			body.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				body.WriteString("\n\\ No newline at end of file\n")
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n%s", hunkRange(oldStart, oldCount), hunkRange(newStart, newCount), body.String())
		i = end
	}
	return out.String()
}

// hunkRange formats a hunk header's range: start is the 0-based index of
// the first line.
func hunkRange(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}

// A lineOp is one line of a diff: ' ' kept, '-' removed, '+' added, with
// the 0-based line numbers in the old and new text where it stands.
type lineOp struct {
	kind             byte
	text             string
	oldLine, newLine int
}

// diffLines returns the line operations turning a into b: a longest common
// subsequence on the lines between the common prefix and suffix (fixes are
// local, so that middle is small), or a replacement of the middle when it
// is too large to compare line by line.
func diffLines(a, b []string) []lineOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []lineOp
	i, j := 0, 0
	keep := func() { ops = append(ops, lineOp{' ', a[i], i, j}); i++; j++ }
	del := func() { ops = append(ops, lineOp{'-', a[i], i, j}); i++ }
	add := func() { ops = append(ops, lineOp{'+', b[j], i, j}); j++ }
	for i < pre {
		keep()
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma)*len(mb) > 4_000_000 {
		for range ma {
			del()
		}
		for range mb {
			add()
		}
	} else {
		// lcs[x][y] is the LCS length of ma[x:] and mb[y:].
		lcs := make([][]int, len(ma)+1)
		for x := range lcs {
			lcs[x] = make([]int, len(mb)+1)
		}
		for x := len(ma) - 1; x >= 0; x-- {
			for y := len(mb) - 1; y >= 0; y-- {
				if ma[x] == mb[y] {
					lcs[x][y] = lcs[x+1][y+1] + 1
				} else {
					lcs[x][y] = max(lcs[x+1][y], lcs[x][y+1])
				}
			}
		}
		x, y := 0, 0
		for x < len(ma) || y < len(mb) {
			switch {
			case x < len(ma) && y < len(mb) && ma[x] == mb[y]:
				keep()
				x, y = x+1, y+1
			case y < len(mb) && (x == len(ma) || lcs[x][y+1] > lcs[x+1][y]):
				add()
				y++
			default:
				del()
				x++
			}
		}
	}
	for i < len(a) {
		keep()
	}
	return ops
}

// splitLines splits s into lines, each with its "\n" but perhaps the last.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
