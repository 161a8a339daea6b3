package mcp

import (
	"strings"
	"testing"
)

// TestCoalesceKeyMeta: _meta.coalesceKey is read as a 1..256-character string; any other type
// or length, or a spelling that differs only by case, is TOOL_VALIDATION_FAILED.
func TestCoalesceKeyMeta(t *testing.T) {
	p, terr := ParseCallToolParams([]byte(`{"name":"workspace.writeFile","_meta":{"source":"local","mode":"direct","coalesceKey":"type:app.js#3"}}`))
	if terr != nil || p.Meta == nil || p.Meta.CoalesceKey != "type:app.js#3" {
		t.Fatalf("coalesceKey not read: %+v %v", p.Meta, terr)
	}
	for _, bad := range []string{`""`, `3`, `null`, `"` + strings.Repeat("k", MaxToolCallIDChars+1) + `"`} {
		if _, terr := ParseCallToolParams([]byte(`{"name":"a","_meta":{"coalesceKey":` + bad + `}}`)); terr == nil || ToolErrorOf(terr).Code != CodeToolValidationFailed {
			t.Errorf("coalesceKey %s accepted (%v)", bad, terr)
		}
	}
	if _, terr := ParseCallToolParams([]byte(`{"name":"a","_meta":{"CoalesceKey":"x"}}`)); terr == nil {
		t.Error("CoalesceKey (case variant) accepted")
	}
}
