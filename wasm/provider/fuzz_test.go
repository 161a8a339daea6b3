package provider

import (
	"encoding/json"
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

// FuzzProviderSchema checks the $schema stripper against a decode-based reference on every
// schema that Validate accepts.
func FuzzProviderSchema(f *testing.F) {
	for _, s := range []string{
		`{"$schema":"x","type":"object"}`, `{"\u0024schema":1,"a":{"$schema":2}}`, `{ }`,
		`{"a":"}\"","$schema":[{"}":"]"}],"b":-1.5e3}`, `{"$schema":null}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if checkSchema(data, true) != nil {
			return
		}
		got, err := providerSchema(data)
		if err != nil {
			t.Fatalf("providerSchema(%q): %v", data, err)
		}
		var want, have map[string]json.RawMessage
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		delete(want, "$schema")
		if err := json.Unmarshal(got, &have); err != nil {
			t.Fatalf("providerSchema(%q) = %q, not a JSON object: %v", data, got, err)
		}
		if len(want) != len(have) {
			t.Fatalf("providerSchema(%q) = %q: %d members, want %d", data, got, len(have), len(want))
		}
		for k, v := range want {
			if string(have[k]) != string(v) {
				t.Fatalf("providerSchema(%q) = %q: member %q is %q, want %q", data, got, k, have[k], v)
			}
		}
	})
}
