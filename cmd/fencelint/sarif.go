package main

import (
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
)

// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), the parts
// fencelint fills and GitHub code scanning reads.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                   `json:"tool"`
		OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
		Results            []sarifResult               `json:"results"`
		ColumnKind         string                      `json:"columnKind"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Version        string      `json:"version,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string          `json:"id"`
		Name                 string          `json:"name"`
		ShortDescription     sarifText       `json:"shortDescription"`
		FullDescription      sarifText       `json:"fullDescription"`
		Help                 sarifText       `json:"help"`
		HelpURI              string          `json:"helpUri,omitempty"`
		DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
		Properties           map[string]any  `json:"properties,omitempty"`
	}
	sarifRuleConfig struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID       string             `json:"ruleId"`
		RuleIndex    int                `json:"ruleIndex"`
		Level        string             `json:"level"`
		Message      sarifText          `json:"message"`
		Locations    []sarifLocation    `json:"locations"`
		Related      []sarifLocation    `json:"relatedLocations,omitempty"`
		Suppressions []sarifSuppression `json:"suppressions,omitempty"`
	}
	sarifLocation struct {
		ID               *int                  `json:"id,omitempty"`
		PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
		Message          *sarifText            `json:"message,omitempty"`
	}
	sarifPhysicalLocation struct {
		ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
		Region           sarifRegion      `json:"region"`
	}
	sarifArtifactLoc struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
	sarifSuppression struct {
		Kind          string `json:"kind"`
		Justification string `json:"justification,omitempty"`
	}
)

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifSrcRoot = "%SRCROOT%"
	projectURL   = "https://github.com/fencelint/fencelint"
)

// writeSARIF writes findings as a SARIF 2.1.0 log: one rule per check (its
// id is the check's name), paths relative to the current directory (the
// %SRCROOT% base), and findings silenced by a directive as results with an
// in-source suppression.
func writeSARIF(w io.Writer, checks []*analysis.Analyzer, findings []finding) error {
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	run := sarifRun{
		Tool:               sarifTool{Driver: sarifDriver{Name: "fencelint", InformationURI: projectURL, Version: version(), Rules: []sarifRule{}}},
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{sarifSrcRoot: {URI: fileURI(cwd) + "/"}},
		Results:            []sarifResult{},
		ColumnKind:         "utf16CodeUnits",
	}
	ruleIndex := make(map[string]int)
	for _, a := range checks {
		ruleIndex[a.Name] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID:                   a.Name,
			Name:                 a.Name,
			ShortDescription:     sarifText{summary(a)},
			FullDescription:      sarifText{firstParagraph(a)},
			Help:                 sarifText{strings.TrimSpace(a.Doc)},
			HelpURI:              a.URL,
			DefaultConfiguration: sarifRuleConfig{Level: "warning"},
			Properties:           map[string]any{"tags": []string{"correctness", "concurrency", "distributed-lock"}, "precision": "high"},
		})
	}
	cols := make(columnConverter)
	for _, f := range findings {
		res := sarifResult{
			RuleID:    f.check,
			RuleIndex: ruleIndex[f.check],
			Level:     "warning",
			Message:   sarifText{f.diag.Message},
			Locations: []sarifLocation{{PhysicalLocation: cols.location(cwd, f.pos.Filename, f.pos.Line, f.pos.Column, f.end.Line, f.end.Column)}},
		}
		related := f.diag.Related
		if f.suppressed != nil {
			res.Suppressions = []sarifSuppression{{Kind: "inSource", Justification: justification(f.suppressed.Message)}}
			related = related[1:]
		}
		for i, r := range related {
			p, e := f.fset.Position(r.Pos), f.fset.Position(r.End)
			if !e.IsValid() {
				e = p
			}
			id := i + 1
			res.Related = append(res.Related, sarifLocation{ID: &id, Message: &sarifText{r.Message},
				PhysicalLocation: cols.location(cwd, p.Filename, p.Line, p.Column, e.Line, e.Column)})
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// firstParagraph returns the first paragraph of a's documentation after
// its summary line, unwrapped, or the summary if there is none.
func firstParagraph(a *analysis.Analyzer) string {
	paras := strings.Split(strings.TrimSpace(a.Doc), "\n\n")
	if len(paras) < 2 {
		return summary(a)
	}
	return strings.Join(strings.Fields(paras[1]), " ")
}

// justification is the reason a directive gives: the text after
// //fencelint:ignore, or after a //nolint's names and "//".
func justification(directive string) string {
	if rest, ok := strings.CutPrefix(directive, "//fencelint:ignore"); ok {
		return strings.TrimSpace(rest)
	}
	if _, reason, ok := strings.Cut(strings.TrimPrefix(directive, "//"), "//"); ok {
		return strings.TrimSpace(reason)
	}
	return directive
}

// fileURI returns the file: URI of an absolute path.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// A columnConverter turns Go's byte columns into SARIF's UTF-16 columns,
// reading each file once.
type columnConverter map[string][]string

func (cc columnConverter) location(cwd, file string, line, col, endLine, endCol int) sarifPhysicalLocation {
	loc := sarifArtifactLoc{URI: fileURI(file)}
	if rel := relative(cwd, file); rel != file {
		loc = sarifArtifactLoc{URI: (&url.URL{Path: filepath.ToSlash(rel)}).String(), URIBaseID: sarifSrcRoot}
	}
	return sarifPhysicalLocation{ArtifactLocation: loc, Region: sarifRegion{
		StartLine: line, StartColumn: cc.column(file, line, col), EndLine: endLine, EndColumn: cc.column(file, endLine, endCol)}}
}

// column returns the 1-based UTF-16 column of the byte column col of line.
func (cc columnConverter) column(file string, line, col int) int {
	lines, ok := cc[file]
	if !ok {
		data, _ := os.ReadFile(file)
		lines = strings.Split(string(data), "\n")
		cc[file] = lines
	}
	if line < 1 || line > len(lines) || col < 1 {
		return col
	}
	text := lines[line-1]
	if col-1 > len(text) {
		return col
	}
	n := 0
	for _, r := range text[:col-1] {
		if r == utf8.RuneError {
			n++
			continue
		}
		n += utf16.RuneLen(r)
	}
	return n + 1
}
