// Package migrate executes migration files and records what it applied
// through RevisionReadWriter, whose implementations live in packages that
// import this one: main wires one in.
package migrate

import (
	"context"
	"errors"
	"time"
)

type Revision struct {
	Version    string
	Applied    int
	ExecutedAt time.Time
}

type RevisionReadWriter interface {
	ReadRevision(ctx context.Context, version string) (*Revision, error)
	WriteRevision(ctx context.Context, r *Revision) error
}

// NopRevisionReadWriter records nothing.
type NopRevisionReadWriter struct{}

func (NopRevisionReadWriter) ReadRevision(context.Context, string) (*Revision, error) {
	return &Revision{}, nil
}

func (NopRevisionReadWriter) WriteRevision(context.Context, *Revision) error { return nil }

type Executor struct {
	rrw RevisionReadWriter
}

func NewExecutor(rrw RevisionReadWriter) (*Executor, error) {
	if rrw == nil {
		return nil, errors.New("migrate: no revision store")
	}
	return &Executor{rrw: rrw}, nil
}

// Replay runs the statements on a scratch database to compute their
// result, on an executor that records nothing.
func Replay(ctx context.Context, stmts []string) error {
	ex, err := NewExecutor(NopRevisionReadWriter{})
	if err != nil {
		return err
	}
	return ex.Execute(ctx, "replay", stmts)
}

// Execute applies the file's statements and records each step.
func (e *Executor) Execute(ctx context.Context, version string, stmts []string) error {
	r, err := e.rrw.ReadRevision(ctx, version)
	if err != nil {
		return err
	}
	for range stmts[r.Applied:] {
		r.Applied++
		if err := e.writeRevision(ctx, r); err != nil {
			return err
		}
	}
	return nil
}

func (e *Executor) writeRevision(ctx context.Context, r *Revision) error {
	r.ExecutedAt = time.Now()
	return e.rrw.WriteRevision(ctx, r)
}
