package golangci

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/fencelint/fencelint/analyzers"
)

func names(as []*analysis.Analyzer) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

func TestNewSettings(t *testing.T) {
	all := names(analyzers.All())
	for _, tc := range []struct {
		raw  any
		want []string
	}{
		{nil, all},
		{map[string]any{}, all},
		{map[string]any{"checks": []any{"weaktoken", "unfencedwrite"}}, []string{"unfencedwrite", "weaktoken"}},
		{map[string]any{"disable": []any{"heldcheck"}, "tests": false}, slices.DeleteFunc(slices.Clone(all), func(n string) bool { return n == "heldcheck" })},
	} {
		p, err := New(tc.raw)
		if err != nil {
			t.Errorf("New(%v): %v", tc.raw, err)
			continue
		}
		got, err := p.BuildAnalyzers()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(names(got), tc.want) {
			t.Errorf("New(%v) runs %v, want %v", tc.raw, names(got), tc.want)
		}
		if err := analysis.Validate(got); err != nil {
			t.Errorf("New(%v): %v", tc.raw, err)
		}
	}
}

func TestNewRejects(t *testing.T) {
	for _, tc := range []struct {
		raw  any
		want string
	}{
		{map[string]any{"checks": []any{"unfencedwirte"}}, `unknown check "unfencedwirte"`},
		{map[string]any{"disabled": []any{"heldcheck"}}, `unknown field "disabled"`},
		{map[string]any{"checks": []any{"heldcheck"}, "disable": []any{"heldcheck"}}, "disable every check"},
	} {
		_, err := New(tc.raw)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%v) = %v, want an error containing %q", tc.raw, err, tc.want)
		}
	}
}
