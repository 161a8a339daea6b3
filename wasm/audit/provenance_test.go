package audit

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/webcoding/studio/wasm/mcp"
)

func mustTime(t testing.TB, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

func itoa(n int) string { return strconv.Itoa(n) }

const validProvenance = `{"schemaVersion":"context-action-tool-execution-provenance.v1","phase":"tool-call",` +
	`"ownerId":"studio:1","state":"completed","timeoutMs":2500,"maxOutputBytes":65536,"usedOutputBytes":212,"elapsedMs":3}`

func TestParseProvenanceValid(t *testing.T) {
	got, err := ParseProvenance([]byte(validProvenance))
	if err != nil {
		t.Fatal(err)
	}
	timeout, maxOut := int64(2500), int64(65536)
	want := Provenance{SchemaVersion: ProvenanceSchemaVersion, Phase: ProvenancePhase, OwnerID: "studio:1",
		State: StateCompleted, TimeoutMs: &timeout, MaxOutputBytes: &maxOut, UsedOutputBytes: 212, ElapsedMs: 3}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Round trip: Marshal emits exactly the canonical record.
	b, _ := json.Marshal(got)
	if string(b) != validProvenance {
		t.Errorf("Marshal = %s", b)
	}
	// Optional fields may be omitted; integral spellings of numbers are accepted.
	minimal := `{"schemaVersion":"context-action-tool-execution-provenance.v1","phase":"tool-call","ownerId":"o","state":"pending","usedOutputBytes":0,"elapsedMs":1.0e3}`
	got, err = ParseProvenance([]byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	if got.TimeoutMs != nil || got.MaxOutputBytes != nil || got.ElapsedMs != 1000 || got.State != StatePending {
		t.Errorf("minimal = %+v", got)
	}
	for _, s := range []ProvenanceState{StatePending, StateCompleted, StateFailed, StateCancelled, StateUnknown} {
		if _, err := ParseProvenance([]byte(strings.Replace(validProvenance, `"completed"`, `"`+string(s)+`"`, 1))); err != nil {
			t.Errorf("state %s: %v", s, err)
		}
	}
	owner256 := strings.Repeat("é", 256)
	if _, err := ParseProvenance([]byte(strings.Replace(validProvenance, `"studio:1"`, `"`+owner256+`"`, 1))); err != nil {
		t.Errorf("256-character ownerId: %v", err)
	}
}

func TestParseProvenanceRejects(t *testing.T) {
	replace := func(old, new string) string { return strings.Replace(validProvenance, old, new, 1) }
	cases := map[string]string{
		"malformed":          `{"schemaVersion":`,
		"not object":         `[]`,
		"null":               `null`,
		"invalid utf8":       replace(`"studio:1"`, "\"studio:\xff\""),
		"unknown field":      replace(`"elapsedMs":3`, `"elapsedMs":3,"extra":1`),
		"case-variant key":   replace(`"ownerId"`, `"OwnerId"`),
		"repeated key":       replace(`"elapsedMs":3`, `"elapsedMs":3,"elapsedMs":4`),
		"escaped repeat":     replace(`"elapsedMs":3`, `"elapsedMs":3,"elapsed\u004ds":4`),
		"missing ownerId":    replace(`"ownerId":"studio:1",`, ``),
		"missing state":      replace(`"state":"completed",`, ``),
		"missing usedOutput": replace(`"usedOutputBytes":212,`, ``),
		"missing elapsed":    replace(`,"elapsedMs":3`, ``),
		"missing schema":     replace(`"schemaVersion":"context-action-tool-execution-provenance.v1",`, ``),
		"wrong schema":       replace(`provenance.v1`, `provenance.v2`),
		"wrong phase":        replace(`"tool-call"`, `"tool-list"`),
		"schema not string":  replace(`"context-action-tool-execution-provenance.v1"`, `1`),
		"unknown state":      replace(`"completed"`, `"done"`),
		"state case":         replace(`"completed"`, `"Completed"`),
		"empty ownerId":      replace(`"studio:1"`, `""`),
		"untrimmed ownerId":  replace(`"studio:1"`, `" studio:1"`),
		"trailing space":     replace(`"studio:1"`, `"studio:1\n"`),
		"bom ownerId":        replace(`"studio:1"`, `"\ufeffstudio:1"`),
		"nbsp ownerId":       replace(`"studio:1"`, `"studio:1\u00a0"`),
		"nul ownerId":        replace(`"studio:1"`, `"studio\u00001"`),
		"long ownerId":       replace(`"studio:1"`, `"`+strings.Repeat("a", 257)+`"`),
		"ownerId not string": replace(`"studio:1"`, `7`),
		"negative elapsed":   replace(`"elapsedMs":3`, `"elapsedMs":-3`),
		"negative zero":      replace(`"elapsedMs":3`, `"elapsedMs":-0`),
		"fractional used":    replace(`"usedOutputBytes":212`, `"usedOutputBytes":212.5`),
		"fractional timeout": replace(`"timeoutMs":2500`, `"timeoutMs":0.5`),
		"string number":      replace(`"elapsedMs":3`, `"elapsedMs":"3"`),
		"null timeout":       replace(`"timeoutMs":2500`, `"timeoutMs":null`),
		"bool maxOutput":     replace(`"maxOutputBytes":65536`, `"maxOutputBytes":true`),
		"unsafe integer":     replace(`"elapsedMs":3`, `"elapsedMs":9007199254740992`),
		"huge number":        replace(`"elapsedMs":3`, `"elapsedMs":1e400`),
		"negative maxOutput": replace(`"maxOutputBytes":65536`, `"maxOutputBytes":-1`),
		"trailing data":      validProvenance + `{}`,
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := ParseProvenance([]byte(in))
			if err == nil {
				t.Fatalf("accepted %s as %+v", in, p)
			}
			if !errors.Is(err, ErrInvalidProvenance) {
				t.Errorf("error %v does not wrap ErrInvalidProvenance", err)
			}
		})
	}
}

func TestProvenanceValidate(t *testing.T) {
	p := NewProvenance("owner")
	if err := p.Validate(); err != nil {
		t.Fatalf("NewProvenance: %v", err)
	}
	neg := int64(-1)
	bad := []Provenance{
		{},
		func() Provenance { q := p; q.OwnerID = "owner "; return q }(),
		func() Provenance { q := p; q.State = "running"; return q }(),
		func() Provenance { q := p; q.TimeoutMs = &neg; return q }(),
		func() Provenance { q := p; q.ElapsedMs = MaxSafeInteger + 1; return q }(),
		func() Provenance { q := p; q.Phase = "other"; return q }(),
	}
	for i, q := range bad {
		if err := q.Validate(); !errors.Is(err, ErrInvalidProvenance) {
			t.Errorf("case %d: Validate() = %v, want ErrInvalidProvenance", i, err)
		}
	}
}

func TestStateForResult(t *testing.T) {
	errResult := func(c mcp.Code) *mcp.CallToolResult { return mcp.ErrorResult("id", mcp.NewError(c, false, nil, "x")) }
	cases := []struct {
		r    *mcp.CallToolResult
		want ProvenanceState
	}{
		{nil, StateUnknown},
		{&mcp.CallToolResult{ToolCallID: "id", Content: []mcp.Content{mcp.TextContent("ok")}}, StateCompleted},
		{errResult(mcp.CodeToolTimeout), StateUnknown},
		{errResult(mcp.CodeToolExecutionAborted), StateUnknown},
		{errResult(mcp.CodeToolExecutionUnknown), StateUnknown},
		{errResult(mcp.CodeToolCancelled), StateCancelled},
		{errResult(mcp.CodeToolPolicyDenied), StateFailed},
		{errResult(mcp.CodeWorkspaceFileNotFound), StateFailed},
		{&mcp.CallToolResult{IsError: true}, StateFailed},
	}
	for _, c := range cases {
		if got := StateForResult(c.r); got != c.want {
			t.Errorf("StateForResult(%+v) = %s, want %s", c.r, got, c.want)
		}
	}
}
