package trace

import (
	"slices"
	"testing"
)

// TestSessionsNaturalOrder: the session selector lists openrouter-2 before openrouter-10
// (issue 9 tester: it listed -1, -10, -11, …, -2).
func TestSessionsNaturalOrder(t *testing.T) {
	tr := New(Options{})
	for _, s := range []string{"openrouter-10", "openrouter-2", "studio", "openrouter-11", "openrouter-1", ""} {
		tr.Observe(started("workspace.getStatus", "c-"+s, s, "agent", `{}`))
	}
	want := []string{"", "openrouter-1", "openrouter-2", "openrouter-10", "openrouter-11", "studio"}
	if got := tr.Sessions(); !slices.Equal(got, want) {
		t.Fatalf("sessions %q, want %q", got, want)
	}
}

func TestNaturalLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		less bool
	}{
		{"a2", "a10", true}, {"a10", "a2", false}, {"a", "a1", true}, {"a07", "a7", true}, {"a7", "a07", false},
		{"a99999999999999999999999", "a100000000000000000000000", true}, {"x1y2", "x1y10", true}, {"b", "a9", false},
		{"", "", false}, {"1", "a", true},
	} {
		if got := naturalLess(c.a, c.b); got != c.less {
			t.Errorf("naturalLess(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

// FuzzNaturalLess: the order is strict and total (exactly one of a<b, b<a, a==b).
func FuzzNaturalLess(f *testing.F) {
	for _, s := range [][2]string{{"openrouter-2", "openrouter-10"}, {"a07", "a7"}, {"", "0"}, {"x00", "x0"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ab, ba := naturalLess(a, b), naturalLess(b, a)
		if a == b && (ab || ba) || a != b && ab == ba {
			t.Fatalf("naturalLess(%q,%q)=%v, (%q,%q)=%v", a, b, ab, b, a, ba)
		}
	})
}
