package sqlscan_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

func TestFirstVersionSmoke(t *testing.T) {
	s := sqlscan.Parse("UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2")
	if len(s.Statements) != 1 || !s.Statements[0].Writes || len(s.Statements[0].Fences) != 1 {
		t.Fatalf("got %+v", s)
	}
}
