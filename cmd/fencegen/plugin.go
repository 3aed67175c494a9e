package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fencelint/fencelint/gen"
	"google.golang.org/protobuf/encoding/protowire"
)

// pluginMethod is the one argument sqlc passes a process plugin
// (internal/ext/process in sqlc): the request is on stdin, protobuf or
// JSON as the plugin's `format:` says, and the response goes to stdout in
// the same format. The environment is empty (SQLC_VERSION aside) and the
// working directory is sqlc's own.
const pluginMethod = "/plugin.CodegenService/Generate"

// pluginRequest is the part of sqlc's plugin.GenerateRequest fencegen
// reads (protos/plugin/codegen.proto in sqlc).
type pluginRequest struct {
	Settings struct {
		Engine  string   `json:"engine"`
		Schema  []string `json:"schema"`
		Queries []string `json:"queries"`
		Codegen struct {
			Out    string `json:"out"`
			Plugin string `json:"plugin"`
		} `json:"codegen"`
	} `json:"settings"`
	SQLCVersion   string `json:"sqlc_version"`
	PluginOptions []byte `json:"plugin_options"`
	GlobalOptions []byte `json:"global_options"`
}

// pluginOptions are the `options:` of fencegen's codegen entry in
// sqlc.yaml (and its global `options: fencegen:`, which they override).
// package, sql_package, query_parameter_limit, rename and overrides are
// read from the `gen: go:` target fencegen's output shares a package with
// (see adoptGoTarget); given here too, they must be the same.
type pluginOptions struct {
	Package             string            `json:"package"`
	SQLPackage          string            `json:"sql_package"`
	QueryParameterLimit *int              `json:"query_parameter_limit"`
	Rename              map[string]string `json:"rename"`
	Overrides           json.RawMessage   `json:"overrides"`
	Fence               string            `json:"fence"`
	Fences              map[string]string `json:"fences"`
	Compare             string            `json:"compare"`
	Sequence            bool              `json:"sequence"`
	Leases              bool              `json:"leases"`
	OmitVersion         bool              `json:"omit_fencegen_version"`
	// AcceptWarnings names, by table, the warnings the user has read and
	// accepts, each with the reason: any other warning fails generation,
	// since sqlc shows a plugin's messages only when it fails.
	AcceptWarnings map[string]string `json:"accept_warnings"`
}

// runPlugin answers one sqlc codegen request: it returns the exit code.
// An error goes to stderr, which sqlc prints after "process: error running
// command".
func runPlugin(stdin io.Reader, stdout, stderr io.Writer) int {
	in, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintln(stderr, "fencegen:", err)
		return 1
	}
	// sqlc's JSON starts with '{'; its protobuf starts with the tag of
	// settings (0x0a, a newline: never trim it, the length after it may be
	// '{'), and no field of the request has a tag that is '{'.
	asJSON := len(in) > 0 && in[0] == '{'
	var req pluginRequest
	if asJSON {
		err = json.Unmarshal(in, &req)
	} else {
		err = decodeRequest(in, &req)
	}
	if err != nil {
		fmt.Fprintf(stderr, "fencegen: reading sqlc's request: %v\n", err)
		return 1
	}
	files, err := pluginGenerate(&req)
	if err != nil {
		report(stderr, err)
		return 1
	}
	var out []byte
	if asJSON {
		out, err = encodeJSONResponse(files)
		if err != nil {
			fmt.Fprintln(stderr, "fencegen:", err)
			return 1
		}
	} else {
		out = encodeResponse(files)
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintln(stderr, "fencegen:", err)
		return 1
	}
	return 0
}

// pluginGenerate generates the files of one sqlc target. The schema and
// queries paths of sqlc.yaml are relative to its directory, where sqlc
// is run.
func pluginGenerate(req *pluginRequest) (map[string][]byte, error) {
	opts, err := readPluginOptions(req)
	if err != nil {
		return nil, err
	}
	if err := adoptGoTarget(req, &opts); err != nil {
		return nil, err
	}
	schemas, err := expandPluginPaths("schema", req.Settings.Schema)
	if err != nil {
		return nil, err
	}
	queries, err := expandPluginPaths("queries", req.Settings.Queries)
	if err != nil {
		return nil, err
	}
	cfg := &gen.Config{Engine: gen.Engine(req.Settings.Engine), Package: opts.Package, Driver: gen.Driver(opts.SQLPackage),
		Fence: opts.Fence, Fences: opts.Fences, Compare: gen.Compare(opts.Compare), Sequence: opts.Sequence, Leases: opts.Leases}
	if cfg.Package == "" {
		cfg.Package = strings.ReplaceAll(filepath.Base(req.Settings.Codegen.Out), "-", "_")
	}
	if cfg.Driver == "" {
		cfg.Driver = gen.DriverSQL // sqlc's default
	}
	sources, err := readSources(schemas)
	if err != nil {
		return nil, fmt.Errorf("reading schema: %w", err)
	}
	headerVersion := ""
	if !opts.OmitVersion {
		headerVersion = version()
	}
	g := cfg.Options(sources, headerVersion)
	if g.Queries, err = readSources(queries); err != nil {
		return nil, fmt.Errorf("reading queries: %w", err)
	}
	g.SQLCPlugin = &gen.SQLCPlugin{QueryParameterLimit: 1, Rename: opts.Rename, Overrides: opts.Overrides}
	if opts.QueryParameterLimit != nil {
		g.SQLCPlugin.QueryParameterLimit = *opts.QueryParameterLimit
	}
	res, err := gen.Generate(g)
	if err != nil {
		return nil, err
	}
	if err := checkWarnings(res.Warnings, opts.AcceptWarnings); err != nil {
		return nil, err
	}
	return res.Files, nil
}

// checkWarnings fails on a warning the options do not accept: as sqlc's
// plugin, fencegen cannot show a warning and go on (sqlc prints a plugin's
// stderr only when it fails), and a table left unfenced must not pass
// unnoticed. An acceptance that matches no warning is refused too, so that
// none outlives the problem it was written for.
func checkWarnings(warnings []gen.Diagnostic, accepted map[string]string) error {
	var unaccepted []string
	example := ""
	warned := map[string]bool{}
	for _, w := range warnings {
		warned[w.Table] = true
		reason, ok := accepted[w.Table]
		switch {
		case !ok || w.Table == "":
			unaccepted = append(unaccepted, w.String())
			if example == "" {
				example = w.Table
			}
		case strings.TrimSpace(reason) == "":
			return fmt.Errorf("fencegen's option accept_warnings in sqlc.yaml: %s needs a reason (why its warning is acceptable)", w.Table)
		}
	}
	for _, table := range sortedKeys(accepted) {
		if !warned[table] {
			return fmt.Errorf("fencegen's option accept_warnings in sqlc.yaml names %s, which has no warning; remove it", table)
		}
	}
	if len(unaccepted) == 0 {
		return nil
	}
	if example == "" {
		example = "TABLE"
	}
	return fmt.Errorf("%s\nfencegen stops on its warnings when sqlc runs it, since sqlc shows a plugin's messages only when it fails: fix them, or accept each by table in fencegen's options in sqlc.yaml with the reason, e.g. accept_warnings: {%s: \"<why this is acceptable>\"}", strings.Join(unaccepted, "\n"), example)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// readPluginOptions decodes the global options, then the target's over
// them; an unknown key is an error.
func readPluginOptions(req *pluginRequest) (pluginOptions, error) {
	var opts pluginOptions
	for _, raw := range [][]byte{req.GlobalOptions, req.PluginOptions} {
		if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&opts); err != nil {
			return opts, fmt.Errorf("fencegen's options in sqlc.yaml: %v", err)
		}
	}
	return opts, nil
}

// expandPluginPaths resolves sqlc.yaml's schema or queries entries (files
// or directories of .sql files) from the working directory.
func expandPluginPaths(what string, entries []string) ([]string, error) {
	paths, err := expandSchemas(".", entries)
	if errors.Is(err, os.ErrNotExist) {
		wd, _ := os.Getwd()
		return nil, fmt.Errorf("%s: %v; sqlc's paths are relative to sqlc.yaml and fencegen, as sqlc's plugin, reads them from the directory sqlc runs in (%s): run sqlc generate from the directory of sqlc.yaml", what, err, wd)
	}
	return paths, err
}

func readSources(paths []string) ([]gen.Source, error) {
	var out []gen.Source
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, gen.Source{Path: p, Data: data})
	}
	return out, nil
}

// decodeRequest reads the fields of a protobuf plugin.GenerateRequest
// that fencegen uses; the others (the catalog, the compiled queries) are
// skipped: fencegen reads the schema itself, with positions for its
// messages and the keys the catalog does not carry.
func decodeRequest(b []byte, req *pluginRequest) error {
	return eachField(b, func(num protowire.Number, v []byte) error {
		switch num {
		case 1: // settings
			return eachField(v, func(num protowire.Number, v []byte) error {
				switch num {
				case 2:
					req.Settings.Engine = string(v)
				case 3:
					req.Settings.Schema = append(req.Settings.Schema, string(v))
				case 4:
					req.Settings.Queries = append(req.Settings.Queries, string(v))
				case 12: // codegen
					return eachField(v, func(num protowire.Number, v []byte) error {
						switch num {
						case 1:
							req.Settings.Codegen.Out = string(v)
						case 2:
							req.Settings.Codegen.Plugin = string(v)
						}
						return nil
					})
				}
				return nil
			})
		case 4:
			req.SQLCVersion = string(v)
		case 5:
			req.PluginOptions = v
		case 6:
			req.GlobalOptions = v
		}
		return nil
	})
}

// eachField calls fn with the number and contents of each length-delimited
// field of a protobuf message, skipping the others.
func eachField(b []byte, fn func(protowire.Number, []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if typ != protowire.BytesType {
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if err := fn(num, v); err != nil {
			return err
		}
	}
	return nil
}

// encodeResponse encodes a plugin.GenerateResponse: repeated File files = 1,
// each with name = 1 and contents = 2; files in name order.
func encodeResponse(files map[string][]byte) []byte {
	var out []byte
	for _, name := range sortedNames(files) {
		var f []byte
		f = protowire.AppendTag(f, 1, protowire.BytesType)
		f = protowire.AppendString(f, name)
		f = protowire.AppendTag(f, 2, protowire.BytesType)
		f = protowire.AppendBytes(f, files[name])
		out = protowire.AppendTag(out, 1, protowire.BytesType)
		out = protowire.AppendBytes(out, f)
	}
	return out
}

func encodeJSONResponse(files map[string][]byte) ([]byte, error) {
	type file struct {
		Name     string `json:"name"`
		Contents []byte `json:"contents"`
	}
	var resp struct {
		Files []file `json:"files"`
	}
	for _, name := range sortedNames(files) {
		resp.Files = append(resp.Files, file{Name: name, Contents: files[name]})
	}
	return json.Marshal(resp)
}
