// Package conformance holds the studio's conformance vectors and the runner every host uses
// (SPEC §4): the native registry (rpcsession.Handler in process), the wasip1 module under wazero, and
// the js module in Chromium. Each vector is a JSON file under testdata/<area>/<name>.json:
//
//	{"description": "…", "config": {rpcsession.Config}, "steps": [Step, …]}
//
// A step sends one JSON-RPC request (or batch) through the host's Handle and compares the
// response with "expect" exactly, after decoding both as JSON. Placeholders are the only
// wildcards: "<id>" matches any non-empty string (generated ids) and "<time>" any RFC 3339
// string. A step with "repeat": N sends one batch of N copies of "request" with every "{i}"
// in its strings replaced by the index, and expects N copies of "expect" likewise.
//
// baseline.json lists the vector × host pairs allowed to differ, each with a reason and an
// issue number; an unlisted difference fails, and so does a listed pair that no longer
// differs (the baseline must stay true).
//
// Owns: the conformance vectors (embedded JSON) and the runner every host runs them with.
//
// Must never: import a package of this module: hosts plug in through its Host interface (layer
// order: wasm/doc.go, enforced by wasm/layout_test.go).
package conformance

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

//go:embed testdata
var vectorFS embed.FS

// Vector is one conformance scenario.
type Vector struct {
	Name        string          `json:"-"` // "<area>/<name>"
	Description string          `json:"description"`
	Config      json.RawMessage `json:"config,omitempty"`
	Steps       []Step          `json:"steps"`
}

// Step is one request and its expected response.
type Step struct {
	Note    string          `json:"note,omitempty"`
	Repeat  int             `json:"repeat,omitempty"`
	Request json.RawMessage `json:"request"`
	Expect  json.RawMessage `json:"expect,omitempty"` // absent: no response (a notification)
}

// Baseline is one allowed difference.
type Baseline struct {
	Host   string `json:"host"`
	Vector string `json:"vector"`
	Reason string `json:"reason"`
	Issue  int    `json:"issue"`
}

// Host is what the runner drives: one JSON-RPC request or batch in, the response out.
type Host func(ctx context.Context, req []byte) ([]byte, error)

// Vectors loads every embedded vector, sorted by name. It fails if none load, so a broken
// embed path cannot make the suite pass vacuously.
func Vectors() ([]Vector, error) {
	var out []Vector
	err := fs.WalkDir(vectorFS, "testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") || path.Base(p) == "baseline.json" {
			return err
		}
		raw, err := vectorFS.ReadFile(p)
		if err != nil {
			return err
		}
		var v Vector
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("conformance: %s: %w", p, err)
		}
		v.Name = strings.TrimSuffix(strings.TrimPrefix(p, "testdata/"), ".json")
		if len(v.Steps) == 0 {
			return fmt.Errorf("conformance: %s has no steps", p)
		}
		out = append(out, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("conformance: no vectors were embedded")
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Baselines loads testdata/baseline.json.
func Baselines() ([]Baseline, error) {
	raw, err := vectorFS.ReadFile("testdata/baseline.json")
	if err != nil {
		return nil, err
	}
	var b []Baseline
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("conformance: baseline.json: %w", err)
	}
	for _, e := range b {
		if e.Host == "" || e.Vector == "" || e.Reason == "" || e.Issue <= 0 {
			return nil, fmt.Errorf("conformance: baseline entry %+v needs host, vector, reason and issue", e)
		}
	}
	return b, nil
}

// configure builds the session/configure request for a vector: the conformance catalog unless
// the vector names another.
func configure(v Vector) []byte {
	cfg := map[string]any{}
	if len(v.Config) > 0 {
		_ = json.Unmarshal(v.Config, &cfg)
	}
	if _, ok := cfg["catalog"]; !ok {
		cfg["catalog"] = "conformance"
	}
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "configure", "method": "session/configure", "params": cfg})
	return req
}

// Play runs one vector against h and returns the first mismatch (nil when all steps match).
// The returned responses (one per step) let -update rewrite expectations; with record set,
// every step runs and nothing is compared.
func Play(ctx context.Context, h Host, v Vector, record bool) ([]json.RawMessage, error) {
	resp, err := h(ctx, configure(v))
	if err != nil {
		return nil, fmt.Errorf("configure: %w", err)
	}
	if !bytes.Contains(resp, []byte(`"configured":true`)) {
		return nil, fmt.Errorf("configure failed: %s", resp)
	}
	var got []json.RawMessage
	for i, st := range v.Steps {
		req, expect := st.Request, st.Expect
		if st.Repeat > 0 {
			req = repeat(st.Request, st.Repeat)
			if len(st.Expect) > 0 {
				expect = repeat(st.Expect, st.Repeat)
			}
		}
		start := time.Now()
		resp, err := h(ctx, req)
		if err != nil {
			return got, fmt.Errorf("step %d: host error after %v: %w", i, time.Since(start), err)
		}
		got = append(got, resp)
		if record {
			continue
		}
		if len(expect) == 0 {
			if len(bytes.TrimSpace(resp)) != 0 {
				return got, fmt.Errorf("step %d (%s): expected no response, got %s", i, st.Note, resp)
			}
			continue
		}
		if d := Diff(expect, resp); d != "" {
			return got, fmt.Errorf("step %d (%s): %s\nrequest:  %s\nexpected: %s\ngot:      %s", i, st.Note, d, clip(req), clip(expect), clip(resp))
		}
	}
	return got, nil
}

func clip(b []byte) string {
	if len(b) > 4000 {
		return string(b[:4000]) + "…"
	}
	return string(b)
}

// repeat expands a template into a batch of n copies with "{i}" replaced in every string.
func repeat(tmpl json.RawMessage, n int) json.RawMessage {
	var v any
	_ = json.Unmarshal(tmpl, &v)
	items := make([]any, n)
	for i := range items {
		items[i] = substitute(v, fmt.Sprint(i))
	}
	b, _ := json.Marshal(items)
	return b
}

func substitute(v any, i string) any {
	switch x := v.(type) {
	case string:
		return strings.ReplaceAll(x, "{i}", i)
	case []any:
		out := make([]any, len(x))
		for k := range x {
			out[k] = substitute(x[k], i)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = substitute(e, i)
		}
		return out
	}
	return v
}

// Diff compares expected (with placeholders) to got and describes the first difference, or
// returns "" when they match.
func Diff(expected, got []byte) string {
	var e, g any
	if err := json.Unmarshal(expected, &e); err != nil {
		return "expected is not JSON: " + err.Error()
	}
	dec := json.NewDecoder(bytes.NewReader(got))
	if err := dec.Decode(&g); err != nil {
		return "response is not JSON: " + err.Error()
	}
	return diff("", e, g)
}

func diff(at string, e, g any) string {
	if s, ok := e.(string); ok {
		switch s {
		case "<id>":
			if gs, ok := g.(string); ok && gs != "" {
				return ""
			}
			return fmt.Sprintf("at %q: want a non-empty id, got %v", at, g)
		case "<time>":
			if gs, ok := g.(string); ok {
				if _, err := time.Parse(time.RFC3339Nano, gs); err == nil {
					return ""
				}
			}
			return fmt.Sprintf("at %q: want an RFC 3339 time, got %v", at, g)
		}
	}
	switch ex := e.(type) {
	case map[string]any:
		gx, ok := g.(map[string]any)
		if !ok {
			return fmt.Sprintf("at %q: want an object, got %T", at, g)
		}
		keys := make([]string, 0, len(ex)+len(gx))
		for k := range ex {
			keys = append(keys, k)
		}
		for k := range gx {
			if _, ok := ex[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			ev, eok := ex[k]
			gv, gok := gx[k]
			switch {
			case !eok:
				return fmt.Sprintf("at %q: unexpected member %q", at, k)
			case !gok:
				return fmt.Sprintf("at %q: missing member %q", at, k)
			}
			if d := diff(at+"/"+k, ev, gv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		gx, ok := g.([]any)
		if !ok {
			return fmt.Sprintf("at %q: want an array, got %T", at, g)
		}
		if len(ex) != len(gx) {
			return fmt.Sprintf("at %q: want %d elements, got %d", at, len(ex), len(gx))
		}
		for i := range ex {
			if d := diff(fmt.Sprintf("%s/%d", at, i), ex[i], gx[i]); d != "" {
				return d
			}
		}
		return ""
	}
	eb, _ := json.Marshal(e)
	gb, _ := json.Marshal(g)
	if !bytes.Equal(eb, gb) {
		return fmt.Sprintf("at %q: want %s, got %s", at, eb, gb)
	}
	return ""
}
