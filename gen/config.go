package gen

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"
)

// Config is fencegen's configuration file (fencegen.yaml). Every field has
// a flag of the same name; paths are relative to the file.
type Config struct {
	Engine   Engine            `yaml:"engine"`
	Schema   Paths             `yaml:"schema"` // one path or a list
	Out      string            `yaml:"out"`
	Package  string            `yaml:"package"`
	Driver   Driver            `yaml:"driver"`
	Fence    string            `yaml:"fence"`
	Fences   map[string]string `yaml:"fences"` // table -> fence column
	Compare  Compare           `yaml:"compare"`
	Sequence bool              `yaml:"sequence"`
	Leases   bool              `yaml:"leases"`
	Queries  Paths             `yaml:"queries"` // users' sqlc queries files to fence
}

// yamlLine finds "line N" in yaml.v3's messages, and yamlUnknown its
// unknown-field message. Compiled once and never modified.
var (
	yamlLine    = regexp.MustCompile(`line (\d+): (.*)`)
	yamlUnknown = regexp.MustCompile(`^field (\S+) not found in type .*$`)
)

// ParseConfig reads a fencegen.yaml. Unknown keys are errors, since a
// misspelt option silently ignored would generate the wrong fencing.
func ParseConfig(path string, data []byte) (*Config, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var c Config
	if err := dec.Decode(&c); err != nil {
		if errors.Is(err, io.EOF) { // an empty file
			return &c, nil
		}
		return nil, yamlError(path, err)
	}
	c.resolve(filepath.Dir(path))
	return &c, nil
}

// yamlError positions yaml.v3's first message ("line 3: field x not found in
// type gen.Config") at path:3:1.
func yamlError(path string, err error) error {
	var te *yaml.TypeError
	msgs := []string{err.Error()}
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	m := yamlLine.FindStringSubmatch(msgs[0])
	if m == nil {
		return errorf(Pos{File: path}, "%s", msgs[0])
	}
	line, _ := strconv.Atoi(m[1])
	msg := m[2]
	if sub := yamlUnknown.FindStringSubmatch(msg); sub != nil {
		msg = fmt.Sprintf("unknown key %q; the keys are engine, schema, queries, out, package, driver, fence, fences, compare, sequence, leases", sub[1])
	}
	return errorf(Pos{File: path, Line: line, Col: 1}, "%s", msg)
}

// resolve makes the file's relative paths relative to the working directory.
func (c *Config) resolve(dir string) {
	for i, s := range c.Schema {
		c.Schema[i] = joinRel(dir, s)
	}
	for i, q := range c.Queries {
		c.Queries[i] = joinRel(dir, q)
	}
	if c.Out != "" {
		c.Out = joinRel(dir, c.Out)
	}
}

func joinRel(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// Paths is a list of file paths that YAML may also give as one string.
type Paths []string

func (l *Paths) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*l = []string{n.Value}
		return nil
	}
	var list []string
	if err := n.Decode(&list); err != nil {
		return err
	}
	*l = list
	return nil
}

// Options turns the configuration into generation options over the schema
// sources the caller read; the caller sets Queries from c.Queries.
func (c *Config) Options(schemas []Source, version string) Options {
	return Options{
		Engine: c.Engine, Schemas: schemas, Package: c.Package, Driver: c.Driver,
		Fence: c.Fence, Fences: c.Fences, Compare: c.Compare,
		Sequence: c.Sequence, Leases: c.Leases, Version: version,
	}
}
