package lease

import "testing"

// TestSettled: a further summary pass is due only when a method that code
// calls through an interface changed what its facts say, not when a pass
// only named its write through one more hop.
func TestSettled(t *testing.T) {
	program := func(methods ...*implMethod) *Program {
		p := &Program{methods: make(map[string][]*implMethod), callersKnown: true,
			called: map[string]bool{"interface Advance(context.Context) (error)": true}}
		for _, m := range methods {
			p.methods[m.method] = append(p.methods[m.method], m)
		}
		return p
	}
	method := func(name string, wf WritesFact) *implMethod {
		return &implMethod{method: name, full: "(*app/escalate.service)." + name, sig: "(context.Context) (error)", writes: &wf}
	}
	appends := WritesFact{System: "SQL database", What: "DB.ExecContext (INSERT events) at events.go:9", Append: true,
		Sites: []Site{{What: "Events.Append", Line: 40}}, Cases: []WriteCase{{What: "Events.Append"}}}
	deeper := appends
	deeper.What += ", via Notifications.RunNow"
	deeper.Sites = []Site{{What: "Notifications.RunNow", Line: 41}}
	deeper.Cases = []WriteCase{{What: "Notifications.RunNow"}}
	replaces := deeper
	replaces.Append = false

	prev := program(method("Advance", appends))
	for _, tc := range []struct {
		name string
		next *Program
		want bool
	}{
		{"same facts", program(method("Advance", appends)), true},
		{"named through one more hop", program(method("Advance", deeper)), true},
		{"replaces data now", program(method("Advance", replaces)), false},
		{"a method no interface call reaches", program(method("Advance", appends), method("Describe", replaces)), true},
		{"lost its facts", program(), false},
	} {
		if got := tc.next.Settled(prev); got != tc.want {
			t.Errorf("%s: Settled = %v, want %v", tc.name, got, tc.want)
		}
	}
	if deeper.Cases[0].What != "Notifications.RunNow" {
		t.Errorf("Settled changed a fact it compared: Cases[0].What = %q", deeper.Cases[0].What)
	}
}
