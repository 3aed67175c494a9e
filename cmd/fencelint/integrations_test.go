package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// actionFile is the part of action.yml the test reads.
type actionFile struct {
	Inputs map[string]struct{ Default string }
	Runs   struct {
		Using string
		Steps []struct {
			ID               string
			Uses             string
			Run              string
			Shell            string
			If               string
			Env              map[string]string
			WorkingDirectory string `yaml:"working-directory"`
		}
	}
}

var expression = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// TestGitHubAction runs action.yml's shell steps as GitHub Actions would
// (inputs at their defaults, offline): fencelint is built from this
// repository's source, run over a module with findings into a SARIF log,
// and the check step lists the findings and fails; on a package with none
// it passes.
func TestGitHubAction(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(moduleRoot, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action actionFile
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("action.yml runs.using %q, want composite", action.Runs.Using)
	}
	uploads := false
	for _, s := range action.Runs.Steps {
		uploads = uploads || strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@")
	}
	if !uploads {
		t.Error("action.yml does not upload the SARIF log")
	}
	actionPath, err := filepath.Abs(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	runnerTemp := t.TempDir()

	// runAction runs the shell steps in workspace with packages as the
	// packages input, and returns the check step's exit code, what the
	// steps printed, and their outputs.
	runAction := func(workspace, packages string) (int, string, map[string]string) {
		inputs := map[string]string{}
		for name, in := range action.Inputs {
			inputs[name] = in.Default
		}
		inputs["packages"] = packages
		outputs := map[string]string{}
		var printed bytes.Buffer
		for _, step := range action.Runs.Steps {
			if step.Run == "" {
				continue
			}
			eval := func(s string) string {
				return expression.ReplaceAllStringFunc(s, func(m string) string {
					expr := expression.FindStringSubmatch(m)[1]
					if name, ok := strings.CutPrefix(expr, "inputs."); ok {
						return inputs[name]
					}
					if ref, ok := strings.CutPrefix(expr, "steps."); ok {
						return outputs[ref]
					}
					t.Fatalf("action.yml: expression %q not understood by the test", expr)
					return ""
				})
			}
			outFile := filepath.Join(runnerTemp, "output-"+step.ID)
			cmd := exec.Command("bash", "-e", "-c", eval(step.Run))
			cmd.Dir = filepath.Join(workspace, eval(step.WorkingDirectory))
			cmd.Env = append(os.Environ(), "GITHUB_ACTION_PATH="+actionPath, "RUNNER_TEMP="+runnerTemp, "GITHUB_OUTPUT="+outFile)
			for k, v := range step.Env {
				cmd.Env = append(cmd.Env, k+"="+eval(v))
			}
			cmd.Stdout, cmd.Stderr = &printed, &printed
			err := cmd.Run()
			out, _ := os.ReadFile(outFile)
			for line := range strings.Lines(string(out)) {
				if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
					outputs[step.ID+".outputs."+k] = v
				}
			}
			if err != nil {
				if step.ID != "check" {
					t.Fatalf("step %q failed: %v\n%s", step.Run, err, printed.String())
				}
				return cmd.ProcessState.ExitCode(), printed.String(), outputs
			}
		}
		return 0, printed.String(), outputs
	}

	dir := writeModule(t)
	code, printed, outputs := runAction(dir, "./...")
	if code == 0 {
		t.Errorf("the action passed on findings:\n%s", printed)
	}
	checkContains(t, "the action's log", printed, []string{
		"::warning file=vetme.go,line=13,", "::warning file=worker/worker.go,line=15,", "::warning file=svc/svc.go,line=18,", "without a fencing token", "fencelint: 3 finding(s)"})
	if outputs["check.outputs.findings"] != "3" {
		t.Errorf("findings output %q, want 3", outputs["check.outputs.findings"])
	}
	sarif := outputs["run.outputs.sarif-file"]
	if data, err := os.ReadFile(sarif); err != nil || !bytes.Contains(data, []byte(`"version": "2.1.0"`)) {
		t.Errorf("SARIF log %q: %v\n%.200s", sarif, err, data)
	}

	code, printed, outputs = runAction(dir, "./store ./report")
	if code != 0 || outputs["check.outputs.findings"] != "0" {
		t.Errorf("the action on packages without findings: check exit code %d, findings %q\n%s", code, outputs["check.outputs.findings"], printed)
	}
}

// TestPreCommitHooks installs the hooks' entry as pre-commit does for a Go
// hook (go install ./... in the hook's repository) and runs it with its
// arguments: it fails on a module with findings and passes on a clean one.
func TestPreCommitHooks(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(moduleRoot, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID, Entry, Language string
		Args                []string
		PassFilenames       *bool `yaml:"pass_filenames"`
		Types               []string
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	gobin := t.TempDir()
	install := exec.Command("go", "install", "./...")
	install.Dir = moduleRoot
	install.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install ./...: %v\n%s", err, out)
	}
	clean := t.TempDir()
	os.WriteFile(filepath.Join(clean, "go.mod"), []byte("module example.com/clean\n\ngo 1.26\n"), 0o666)
	os.WriteFile(filepath.Join(clean, "clean.go"), []byte("package clean\n\nfunc Add(a, b int) int { return a + b }\n"), 0o666)
	dirty := writeModule(t)
	if len(hooks) == 0 {
		t.Fatal("no hooks")
	}
	for _, h := range hooks {
		if h.PassFilenames == nil || *h.PassFilenames || len(h.Types) != 1 || h.Types[0] != "go" {
			t.Errorf("hook %s: want pass_filenames: false and types: [go] (fencelint analyzes packages)", h.ID)
		}
		fields := strings.Fields(h.Entry)
		args := append(fields[1:], h.Args...)
		for _, tc := range []struct {
			dir  string
			code int
		}{{dirty, 3}, {clean, 0}} {
			cmd := exec.Command(filepath.Join(gobin, fields[0]), args...)
			cmd.Dir = tc.dir
			out, _ := cmd.CombinedOutput()
			if got := cmd.ProcessState.ExitCode(); got != tc.code {
				t.Errorf("hook %s in %s: exit code %d, want %d\n%s", h.ID, filepath.Base(tc.dir), got, tc.code, out)
			}
			if tc.code == 3 && !bytes.Contains(out, []byte("vetme.go:13:")) {
				t.Errorf("hook %s: output lacks the finding:\n%s", h.ID, out)
			}
		}
	}
}
