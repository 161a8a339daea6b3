package provider

import (
	"errors"
	"testing"
)

// FuzzNameMap checks that every mappable pair of names either maps reversibly to two
// distinct provider-legal names or is refused with a collision or duplicate error.
func FuzzNameMap(f *testing.F) {
	f.Add("workspace.getStatus", "workspace_getStatus")
	f.Add("a.b", "a.c")
	f.Add("ping", "ping")
	f.Add("x y", "z")
	f.Fuzz(func(t *testing.T, a, b string) {
		m, err := NewNameMap([]string{a, b})
		pa, ea := ProviderName(a)
		pb, eb := ProviderName(b)
		switch {
		case ea != nil || eb != nil:
			if !errors.Is(err, ErrNameNotRepresentable) {
				t.Fatalf("NewNameMap(%q, %q) = %v, want ErrNameNotRepresentable", a, b, err)
			}
		case a == b:
			if !errors.Is(err, ErrDuplicateName) {
				t.Fatalf("NewNameMap(%q, %q) = %v, want ErrDuplicateName", a, b, err)
			}
		case pa == pb:
			if !errors.Is(err, ErrNameCollision) {
				t.Fatalf("NewNameMap(%q, %q) = %v, want ErrNameCollision", a, b, err)
			}
		default:
			if err != nil {
				t.Fatalf("NewNameMap(%q, %q) = %v", a, b, err)
			}
			for _, c := range []string{a, b} {
				p, ok := m.ToProvider(c)
				if !ok || !ValidName(p) {
					t.Fatalf("ToProvider(%q) = %q, %v", c, p, ok)
				}
				if back, ok := m.ToCanonical(p); !ok || back != c {
					t.Fatalf("ToCanonical(%q) = %q, %v; want %q", p, back, ok, c)
				}
			}
		}
	})
}
