package gen

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Generate's work runs in a child process of the running executable, and
// sqlc runs inside that child. sqlc cannot run in the caller's process: its
// only exported entry point (pkg/cli) prints to the process's stderr and
// ends the process with os.Exit(1) when generation fails, and a panic in
// one of its goroutines cannot be recovered; either would skip the
// caller's cleanup and error message. Re-executing the running binary
// needs no sqlc install and runs exactly the sqlc version fencegen was
// built and tested with. The child does the whole generation, not only
// sqlc's part, so that fencegen's own work runs in the process and on the
// heap that sqlc has already paid to start and grow; the caller writes the
// options to a directory, starts the child and reads back its result.

// generateChildEnv, set to a directory, makes a program that links this
// package run, instead of its own main, the generation that directory's
// request describes.
const generateChildEnv = "FENCEGEN_GENERATE"

// The child's working directory.
const (
	requestFile = "request.gob" // the Options, written by the parent
	resultFile  = "result.gob"  // a childResult, written by the child
	outputDir   = "out"         // the result's files
	phaseFile   = "phase"       // phaseSQLC while sqlc runs, then phaseFinish
	sqlcWorkDir = "sqlc"        // sqlc's input and output
	phaseSQLC   = "sqlc"
	phaseFinish = "finish"
)

func init() {
	if dir := os.Getenv(generateChildEnv); dir != "" {
		os.Exit(runChild(dir))
	}
}

// childResult is a generation's outcome as the child hands it back. The
// files' contents go next to it (outputDir/i for FileNames[i]): the
// parent then reads each once, where decoding them from the result would
// copy a large package three times over.
type childResult struct {
	FileNames []string
	Warnings  []Diagnostic
	// The error: Diagnostics for an *Error, Message for any other.
	ErrDiagnostics []Diagnostic
	ErrMessage     string
}

// writeResult writes the outcome of the child's generation to dir.
func writeResult(dir string, res *Result, err error) error {
	var r childResult
	switch e := err.(type) {
	case nil:
		r.Warnings = res.Warnings
		for name, data := range res.Files {
			if err := writeFile(filepath.Join(dir, outputDir, strconv.Itoa(len(r.FileNames))), data); err != nil {
				return err
			}
			r.FileNames = append(r.FileNames, name)
		}
	case *Error:
		r.ErrDiagnostics = e.Diagnostics
	default:
		r.ErrMessage = err.Error()
	}
	return writeGob(filepath.Join(dir, resultFile), r)
}

// readResult reads back what writeResult wrote.
func readResult(dir string) (*Result, error) {
	var r childResult
	if err := readGob(filepath.Join(dir, resultFile), &r); err != nil {
		return nil, fmt.Errorf("reading the result of fencegen's child process: %w", err)
	}
	switch {
	case r.ErrDiagnostics != nil:
		return nil, &Error{Diagnostics: r.ErrDiagnostics}
	case r.ErrMessage != "":
		return nil, childError(r.ErrMessage)
	}
	res := &Result{Files: make(map[string][]byte, len(r.FileNames)), Warnings: r.Warnings}
	for i, name := range r.FileNames {
		data, err := os.ReadFile(filepath.Join(dir, outputDir, strconv.Itoa(i)))
		if err != nil {
			return nil, fmt.Errorf("reading the result of fencegen's child process: %w", err)
		}
		res.Files[name] = data
	}
	return res, nil
}

// childError is an error of the child's, by its message.
type childError string

func (e childError) Error() string { return string(e) }

// generateInChild runs the generation in a child process and returns its
// result. When sqlc ends the child, its messages are placed in the user's
// files as far as they can be.
func generateInChild(opts Options) (*Result, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot run sqlc: locating fencegen's executable: %w", err)
	}
	dir, err := os.MkdirTemp("", "fencegen-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := writeGob(filepath.Join(dir, requestFile), opts); err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), generateChildEnv+"="+dir)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return nil, childFailure(opts, dir, err, out.String())
	}
	return readResult(dir)
}

// childFailure explains a child that ended without a result. If sqlc ended
// it, the schema is read again here (only on this path) for the places of
// sqlc's messages; anything else is a fencegen bug.
func childFailure(opts Options, dir string, err error, output string) error {
	if phase, _ := os.ReadFile(filepath.Join(dir, phaseFile)); string(phase) != phaseSQLC {
		return fmt.Errorf("fencegen's child process failed (%v): %s; please report this as a fencegen bug", err, strings.TrimSpace(output))
	}
	p, perr := prepare(opts)
	if perr != nil {
		return perr
	}
	return p.job.explain(&sqlcFailure{err: err, output: output})
}

// runChild is the child's main: it generates what dir's request asks for
// and writes the result there. It returns the process's exit code: sqlc's
// own when sqlc failed, so that the parent reads sqlc's messages.
func runChild(dir string) int {
	var opts Options
	if err := readGob(filepath.Join(dir, requestFile), &opts); err != nil {
		fmt.Fprintln(os.Stderr, "fencegen: reading the request:", err)
		return 1
	}
	res, err := generate(opts, dir)
	if exit, ok := err.(*sqlcExit); ok {
		return exit.code
	}
	if err := writeResult(dir, res, err); err != nil {
		fmt.Fprintln(os.Stderr, "fencegen: writing the result:", err)
		return 1
	}
	return 0
}

// generate is the child's generation, with sqlc run in this process in
// dir. opts has its defaults.
func generate(opts Options, dir string) (*Result, error) {
	p, err := prepare(opts)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, phaseFile), []byte(phaseSQLC), 0o644); err != nil {
		return nil, err
	}
	goFiles, err := p.job.run(filepath.Join(dir, sqlcWorkDir))
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, phaseFile), []byte(phaseFinish), 0o644); err != nil {
		return nil, err
	}
	return p.finish(goFiles)
}

func writeGob(path string, v any) error {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(v); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func readGob(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return gob.NewDecoder(bytes.NewReader(data)).Decode(v)
}
