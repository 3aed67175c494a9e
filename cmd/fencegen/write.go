package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// writeOutput writes the generated files into dir without leaving a
// half-written package: a new directory is assembled under a temporary
// name and renamed into place; in an existing directory (which may hold the
// user's own code) each file is written to a temporary file and all are
// renamed only after every one was written.
func writeOutput(dir string, files map[string][]byte) error {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return writeNewDir(dir, files)
	}
	return replaceFiles(dir, files)
}

func writeNewDir(dir string, files map[string][]byte) error {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".fencegen-")
	if err != nil {
		return err
	}
	for _, name := range sortedNames(files) {
		if err := os.WriteFile(filepath.Join(tmp, name), files[name], 0o644); err != nil {
			os.RemoveAll(tmp)
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return nil
}

func replaceFiles(dir string, files map[string][]byte) error {
	temps := map[string]string{}
	cleanup := func() {
		for _, tmp := range temps {
			os.Remove(tmp)
		}
	}
	for _, name := range sortedNames(files) {
		f, err := os.CreateTemp(dir, ".fencegen-"+name+"-")
		if err != nil {
			cleanup()
			return err
		}
		temps[name] = f.Name()
		_, werr := f.Write(files[name])
		cerr := f.Close()
		if err := errors.Join(werr, cerr, os.Chmod(f.Name(), 0o644)); err != nil {
			cleanup()
			return err
		}
	}
	for _, name := range sortedNames(files) {
		if err := os.Rename(temps[name], filepath.Join(dir, name)); err != nil {
			cleanup()
			return err
		}
		delete(temps, name)
	}
	return nil
}

func sortedNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
