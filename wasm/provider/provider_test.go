package provider

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/webcoding/studio/wasm/mcp"
)

func TestProviderName(t *testing.T) {
	ok := map[string]string{
		"workspace.getStatus":         "workspace_getStatus",
		"preview.setTheme":            "preview_setTheme",
		"a.b.c":                       "a_b_c",
		"ping":                        "ping",
		"with-dash_and_under":         "with-dash_and_under",
		strings.Repeat("x", 64):       strings.Repeat("x", 64),
		"." + strings.Repeat("x", 63): "_" + strings.Repeat("x", 63),
	}
	for in, want := range ok {
		got, err := ProviderName(in)
		if err != nil || got != want {
			t.Errorf("ProviderName(%q) = %q, %v; want %q", in, got, err, want)
		}
		if !ValidName(got) {
			t.Errorf("ProviderName(%q) = %q is not a valid provider name", in, got)
		}
	}
	bad := []string{"", "workspace/getStatus", "a b", "tool:x", "é", "toString()", strings.Repeat("x", 65), "a\x00b", "a.b!"}
	for _, in := range bad {
		got, err := ProviderName(in)
		if !errors.Is(err, ErrNameNotRepresentable) {
			t.Errorf("ProviderName(%q) = %q, %v; want ErrNameNotRepresentable", in, got, err)
		}
	}
}

func TestValidName(t *testing.T) {
	for _, s := range []string{"a", "A_b-9", strings.Repeat("z", 64)} {
		if !ValidName(s) {
			t.Errorf("ValidName(%q) = false", s)
		}
	}
	for _, s := range []string{"", "a.b", strings.Repeat("z", 65), "ä", "a b"} {
		if ValidName(s) {
			t.Errorf("ValidName(%q) = true", s)
		}
	}
}

func TestNameMapRoundTrip(t *testing.T) {
	names := []string{"workspace.getStatus", "workspace.getFile", "preview.setTheme", "ping"}
	m, err := NewNameMap(names)
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() != 4 || !cmp.Equal(m.Canonical(), names) {
		t.Errorf("Len %d, Canonical %v", m.Len(), m.Canonical())
	}
	for _, c := range names {
		p, ok := m.ToProvider(c)
		if !ok || !ValidName(p) {
			t.Fatalf("ToProvider(%q) = %q, %v", c, p, ok)
		}
		back, ok := m.ToCanonical(p)
		if !ok || back != c {
			t.Errorf("ToCanonical(ToProvider(%q)) = %q, %v", c, back, ok)
		}
	}
	if p, _ := m.ToProvider("workspace.getStatus"); p != "workspace_getStatus" {
		t.Errorf("ToProvider(workspace.getStatus) = %q", p)
	}
	// Unknown and dotted names never resolve; names are case-sensitive.
	for _, p := range []string{"workspace.getStatus", "workspace_getstatus", "Workspace_getStatus", "toString", "__proto__", "constructor", ""} {
		if c, ok := m.ToCanonical(p); ok {
			t.Errorf("ToCanonical(%q) = %q, want not found", p, c)
		}
	}
	if _, ok := m.ToProvider("workspace_getStatus"); ok {
		t.Error("ToProvider accepted a provider name")
	}
	// Canonical returns a copy.
	m.Canonical()[0] = "changed"
	if m.Canonical()[0] != "workspace.getStatus" {
		t.Error("Canonical exposes internal state")
	}
	var nilMap *NameMap
	if _, ok := nilMap.ToCanonical("ping"); ok || nilMap.Len() != 0 {
		t.Error("nil NameMap resolves names")
	}
}

func TestNameMapErrors(t *testing.T) {
	cases := []struct {
		names []string
		want  error
		other string
	}{
		{[]string{"a.b", "a_b"}, ErrNameCollision, "a.b"},
		{[]string{"a_b", "a.b"}, ErrNameCollision, "a_b"},
		{[]string{"x", "workspace.get.status", "workspace_get.status"}, ErrNameCollision, "workspace.get.status"},
		{[]string{"a.b", "a.b"}, ErrDuplicateName, ""},
		{[]string{"ok", "bad name"}, ErrNameNotRepresentable, ""},
		{[]string{"ok", strings.Repeat("n", 65)}, ErrNameNotRepresentable, ""},
		{[]string{""}, ErrNameNotRepresentable, ""},
	}
	for _, c := range cases {
		m, err := NewNameMap(c.names)
		if m != nil || !errors.Is(err, c.want) {
			t.Errorf("NewNameMap(%q) = %v, %v; want %v", c.names, m, err, c.want)
			continue
		}
		var ne *NameError
		if !errors.As(err, &ne) || ne.Other != c.other {
			t.Errorf("NewNameMap(%q): error %#v, want Other %q", c.names, err, c.other)
		}
	}
	// Case differences do not collide.
	if _, err := NewNameMap([]string{"a.B", "a.b"}); err != nil {
		t.Errorf("case-distinct names: %v", err)
	}
}

func catalog() []mcp.Tool {
	return []mcp.Tool{
		{
			Name: "workspace.getStatus", Title: "Status", Description: "Workspace status.",
			InputSchema:  json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
		},
		{
			Name:        "workspace.getFile",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","minLength":1,"maxLength":160,"$schema":"kept-when-nested"}},"required":["path"],"additionalProperties":false}`),
		},
		{
			Name: "preview.setTheme", Description: "Set the theme.",
			InputSchema: json.RawMessage(`{"type":"object","$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"theme":{"enum":["light","dark"]}}}`),
		},
	}
}

func TestToOpenAI(t *testing.T) {
	got, err := ToOpenAI(catalog())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	want := `[{"type":"function","function":{"name":"workspace_getStatus","description":"Workspace status.","parameters":{"type":"object","properties":{},"additionalProperties":false}}},` +
		`{"type":"function","function":{"name":"workspace_getFile","parameters":{"type":"object","properties":{"path":{"type":"string","minLength":1,"maxLength":160,"$schema":"kept-when-nested"}},"required":["path"],"additionalProperties":false}}},` +
		`{"type":"function","function":{"name":"preview_setTheme","description":"Set the theme.","parameters":{"type":"object","properties":{"theme":{"enum":["light","dark"]}}}}}]`
	if string(b) != want {
		t.Errorf("ToOpenAI:\n got %s\nwant %s", b, want)
	}
}

func TestToAnthropic(t *testing.T) {
	got, err := ToAnthropic(catalog())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got[:1])
	want := `[{"name":"workspace_getStatus","description":"Workspace status.","input_schema":{"type":"object","properties":{},"additionalProperties":false}}]`
	if string(b) != want {
		t.Errorf("ToAnthropic:\n got %s\nwant %s", b, want)
	}
	if len(got) != 3 || got[1].Name != "workspace_getFile" || got[1].Description != "" || got[2].Name != "preview_setTheme" {
		t.Errorf("ToAnthropic = %+v", got)
	}
}

func TestToMCP(t *testing.T) {
	in := catalog()
	got, err := ToMCP(in)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, got); diff != "" {
		t.Errorf("ToMCP changed the definitions (-in +out):\n%s", diff)
	}
	// The result does not share memory with the input.
	got[0].InputSchema[0] = ' '
	got[0].Annotations.ReadOnlyHint = false
	if in[0].InputSchema[0] != '{' || !in[0].Annotations.ReadOnlyHint {
		t.Error("ToMCP output aliases its input")
	}

	named, err := ToMCPProviderNames(catalog())
	if err != nil {
		t.Fatal(err)
	}
	if named[0].Name != "workspace_getStatus" || named[2].Name != "preview_setTheme" || string(named[0].InputSchema) != string(catalog()[0].InputSchema) {
		t.Errorf("ToMCPProviderNames = %+v", named)
	}
}

func TestExportErrors(t *testing.T) {
	base := catalog()
	mutate := func(f func([]mcp.Tool) []mcp.Tool) []mcp.Tool {
		c := catalog()
		return f(c)
	}
	cases := map[string]struct {
		tools []mcp.Tool
		want  error
	}{
		"collision":        {append(base, mcp.Tool{Name: "workspace_getStatus", InputSchema: json.RawMessage(`{}`)}), ErrNameCollision},
		"duplicate":        {append(catalog(), catalog()[0]), ErrDuplicateName},
		"illegal name":     {[]mcp.Tool{{Name: "work space", InputSchema: json.RawMessage(`{}`)}}, ErrNameNotRepresentable},
		"missing schema":   {mutate(func(c []mcp.Tool) []mcp.Tool { c[1].InputSchema = nil; return c }), ErrInvalidTool},
		"array schema":     {mutate(func(c []mcp.Tool) []mcp.Tool { c[1].InputSchema = json.RawMessage(`[]`); return c }), ErrInvalidTool},
		"malformed schema": {mutate(func(c []mcp.Tool) []mcp.Tool { c[1].InputSchema = json.RawMessage(`{"type":`); return c }), ErrInvalidTool},
		"repeated key": {mutate(func(c []mcp.Tool) []mcp.Tool {
			c[1].InputSchema = json.RawMessage(`{"type":"object","type":"string"}`)
			return c
		}), ErrInvalidTool},
		"output not object": {mutate(func(c []mcp.Tool) []mcp.Tool { c[0].OutputSchema = json.RawMessage(`true`); return c }), ErrInvalidTool},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := ToOpenAI(c.tools); !errors.Is(err, c.want) {
				t.Errorf("ToOpenAI: %v, want %v", err, c.want)
			}
			if _, err := ToAnthropic(c.tools); !errors.Is(err, c.want) {
				t.Errorf("ToAnthropic: %v, want %v", err, c.want)
			}
			if _, err := ToMCP(c.tools); !errors.Is(err, c.want) {
				t.Errorf("ToMCP: %v, want %v", err, c.want)
			}
		})
	}
}

func TestFilteredExportsNeverReAdd(t *testing.T) {
	full := catalog()
	// The registry's allowlist already hid workspace.getFile from tools/list.
	allowed := Filter(full, []string{"workspace.getStatus", "preview.setTheme"})
	if len(allowed) != 2 {
		t.Fatalf("Filter = %d tools", len(allowed))
	}
	// A filtered export that names the hidden tool (canonically or by provider name) gets nothing back.
	allow := []string{"workspace.getFile", "workspace_getFile", "preview.setTheme"}
	oa, err := ToOpenAIFiltered(allowed, allow)
	if err != nil {
		t.Fatal(err)
	}
	if len(oa) != 1 || oa[0].Function.Name != "preview_setTheme" {
		t.Errorf("ToOpenAIFiltered = %+v", oa)
	}
	an, err := ToAnthropicFiltered(allowed, allow)
	if err != nil {
		t.Fatal(err)
	}
	if len(an) != 1 || an[0].Name != "preview_setTheme" {
		t.Errorf("ToAnthropicFiltered = %+v", an)
	}
	mc, err := ToMCPFiltered(allowed, allow)
	if err != nil {
		t.Fatal(err)
	}
	if len(mc) != 1 || mc[0].Name != "preview.setTheme" {
		t.Errorf("ToMCPFiltered = %+v", mc)
	}
	// Filtering keeps the order of the canonical list, not of the allowlist.
	got := Filter(full, []string{"preview.setTheme", "workspace.getStatus"})
	if got[0].Name != "workspace.getStatus" || got[1].Name != "preview.setTheme" {
		t.Errorf("Filter order = %s, %s", got[0].Name, got[1].Name)
	}
	// Fail closed: no allowlist, no tools.
	for _, a := range [][]string{nil, {}} {
		if out, err := ToOpenAIFiltered(full, a); err != nil || len(out) != 0 {
			t.Errorf("ToOpenAIFiltered(%v) = %v, %v", a, out, err)
		}
	}
}

func TestProviderSchemaKeepsBytes(t *testing.T) {
	in := json.RawMessage(`{"$schema":"x", "type" : "object","description":"a<b & c","properties":{"n":{"type":"number"}}}`)
	got, err := providerSchema(in)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatalf("invalid JSON %s: %v", got, err)
	}
	if _, ok := m["$schema"]; ok || m["type"] != "object" || m["description"] != "a<b & c" {
		t.Errorf("providerSchema = %s", got)
	}
	if !strings.HasPrefix(string(got), `{"type":"object","description"`) {
		t.Errorf("member order not kept: %s", got)
	}
	// An escaped spelling of the key is the same key; nested $schema members stay.
	got, _ = providerSchema(json.RawMessage(`{"\u0024schema":"x","a":{"$schema":"y"},"b":[1,"}"]}`))
	if string(got) != `{"a":{"$schema":"y"},"b":[1,"}"]}` {
		t.Errorf("escaped key: %s", got)
	}
	// Without $schema the bytes are returned unchanged (a copy).
	plain := json.RawMessage(`{ "type": "object" }`)
	got, _ = providerSchema(plain)
	if string(got) != string(plain) {
		t.Errorf("unchanged schema rewritten: %s", got)
	}
}
