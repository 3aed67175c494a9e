package lease

import "testing"

func TestConditionFences(t *testing.T) {
	for _, tc := range []struct {
		cond string
		want bool
	}{
		{"#fence < :token", true},
		{"attribute_not_exists(fence) OR fence < :tok", true},
		{"version = :v", true},
		{"attribute_exists(id) AND #s = :pending", true},
		{"ATTRIBUTE_NOT_EXISTS(pk)", true},
		{"fence <= :tok", true},
		{"attribute_exists(id)", false},
		{"attribute_exists(id) AND #s <> :void", false},
		{"begins_with(sk, :prefix)", false},
		{"", false},
	} {
		if got := conditionFences(tc.cond); got != tc.want {
			t.Errorf("conditionFences(%q) = %v, want %v", tc.cond, got, tc.want)
		}
	}
}
