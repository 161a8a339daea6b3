package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// Run plays every vector against h as subtests named "<host>/<area>/<vector>", honouring the
// baseline: a listed pair must differ, an unlisted pair must match.
func Run(t *testing.T, host string, h Host) {
	t.Helper()
	vectors, err := Vectors()
	if err != nil {
		t.Fatal(err)
	}
	baselines, err := Baselines()
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]Baseline{}
	for _, b := range baselines {
		allowed[b.Host+"|"+b.Vector] = b
	}
	for _, v := range vectors {
		t.Run(host+"/"+v.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			_, err := Play(ctx, h, v, false)
			b, listed := allowed[host+"|"+v.Name]
			switch {
			case err != nil && listed:
				t.Logf("known difference (issue %d): %s\n%v", b.Issue, b.Reason, err)
			case err != nil:
				t.Fatal(err)
			case listed:
				t.Fatalf("baseline lists %s on %s (issue %d) but it now matches: remove the entry", v.Name, host, b.Issue)
			}
		})
	}
}

// Update plays every vector against h (the native host) and rewrites each vector file's
// expectations with the responses, keeping "<id>" and "<time>" placeholders where the old
// expectation had them. dir is the package's testdata directory on disk.
func Update(t *testing.T, h Host, dir string) {
	vectors, err := Vectors()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vectors {
		got, _ := Play(context.Background(), h, v, true)
		if len(got) != len(v.Steps) {
			t.Errorf("%s: only %d of %d steps ran; not updated", v.Name, len(got), len(v.Steps))
			continue
		}
		for i := range v.Steps {
			st := &v.Steps[i]
			resp := got[i]
			if st.Repeat > 0 && len(st.Expect) > 0 {
				continue // templated by hand: "{i}" cannot be recovered from a response
			}
			if st.Repeat > 0 {
				var items []json.RawMessage
				if json.Unmarshal(resp, &items) == nil && len(items) > 0 {
					resp = items[0]
				}
			}
			if len(bytes.TrimSpace(resp)) == 0 {
				st.Expect = nil
				continue
			}
			st.Expect = merge(st.Expect, resp)
		}
		out, _ := json.MarshalIndent(struct {
			Description string          `json:"description"`
			Config      json.RawMessage `json:"config,omitempty"`
			Steps       []Step          `json:"steps"`
		}{v.Description, v.Config, v.Steps}, "", "  ")
		if err := os.WriteFile(filepath.Join(dir, v.Name+".json"), append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// merge returns got, with placeholders from old kept where old had them.
func merge(old, got json.RawMessage) json.RawMessage {
	var o, g any
	_ = json.Unmarshal(got, &g)
	if len(old) > 0 {
		_ = json.Unmarshal(old, &o)
		g = keepPlaceholders(o, g)
	}
	b, _ := json.Marshal(g)
	return b
}

// generatedID matches the registry's generated toolCallIds (registry.newCallID).
var generatedID = regexp.MustCompile(`^call-[0-9a-f]{12}-[0-9]+$`)

func keepPlaceholders(o, g any) any {
	if s, ok := o.(string); ok && (s == "<id>" || s == "<time>") {
		return s
	}
	if s, ok := g.(string); ok && generatedID.MatchString(s) {
		return "<id>"
	}
	switch gx := g.(type) {
	case map[string]any:
		ox, _ := o.(map[string]any)
		for k, v := range gx {
			gx[k] = keepPlaceholders(ox[k], v)
		}
	case []any:
		ox, _ := o.([]any)
		for i := range gx {
			var ov any
			if i < len(ox) {
				ov = ox[i]
			}
			gx[i] = keepPlaceholders(ov, gx[i])
		}
	}
	return g
}
