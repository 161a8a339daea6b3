package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/host/wasmhost"
)

// testModule is the real core module, built once per test binary the way the CLI builds it.
var testModule string

func TestMain(m *testing.M) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	p, err := wasmhost.BuildModule(ctx, moduleCacheDir())
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "webcoding tests: building the module:", err)
		os.Exit(1)
	}
	testModule = p
	os.Exit(m.Run())
}

// These run the CLI against the real module through wazero. They check the CLI's contract,
// not the catalog, so they hold for the placeholder router and for the real one.

func TestToolsThroughTheModule(t *testing.T) {
	code, out, stderr := runCLI(t, nil, "", "tools")
	switch code {
	case 0:
		var v struct {
			Tools []struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil || v.Tools == nil || !strings.HasSuffix(out, "}\n") {
			t.Fatalf("stdout is not {\"tools\":[...]}: %v\n%.300s", err, out)
		}
		for _, tl := range v.Tools {
			if tl.Name == "" || len(tl.InputSchema) == 0 {
				t.Fatalf("a tool without name or inputSchema: %+v", tl)
			}
		}
	case exitHost:
		// The placeholder router does not serve tools/list yet.
		if out != "" || !strings.Contains(stderr, "tools/list: the core answered JSON-RPC error") {
			t.Fatalf("exit 1 with stdout %q, stderr %q", out, stderr)
		}
		t.Logf("core does not serve tools/list yet: %s", strings.TrimSpace(stderr))
	default:
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

func TestCallThroughTheModule(t *testing.T) {
	stdin := `{"name":"no.such.tool","arguments":{},"_meta":{"toolCallId":"t-1"}}` + "\n" +
		`{"name":` + "\n" +
		"{\"name\":\"\xff\"}\n" +
		`{"name":"workspace.getStatus","_meta":{"toolCallId":"t-4"}}` + "\n"
	code, out, stderr := runCLI(t, nil, stdin, "call")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rs := results(t, out)
	if len(rs) != 4 {
		t.Fatalf("%d result lines for 4 requests:\n%s", len(rs), out)
	}
	if !rs[0].IsError || rs[0].ToolCallID != "t-1" {
		t.Errorf("unknown tool: %+v", rs[0])
	}
	for i := 1; i <= 2; i++ {
		if !rs[i].IsError || rs[i].Error.Code != "TOOL_VALIDATION_FAILED" {
			t.Errorf("line %d: %+v, want TOOL_VALIDATION_FAILED", i+1, rs[i].Error)
		}
	}
	if rs[3].ToolCallID != "t-4" {
		t.Errorf("line 4 id %q", rs[3].ToolCallID)
	}
}

// TestContextToolsHeadless (issue 17): through the CLI and the real module, preview.inspect
// reads the parsed entry page and says computed false; preview.getConsole says runtime false
// with a note and no entries (no page runs headless).
func TestContextToolsHeadless(t *testing.T) {
	stdin := `{"name":"preview.inspect","arguments":{"selector":"header h1"},"_meta":{"toolCallId":"i-1"}}` + "\n" +
		`{"name":"preview.getConsole","arguments":{"levels":["error"]},"_meta":{"toolCallId":"c-1"}}` + "\n"
	code, out, stderr := runCLI(t, nil, stdin, "call")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rs := results(t, out)
	if len(rs) != 2 || rs[0].IsError || rs[1].IsError {
		t.Fatalf("results:\n%s", out)
	}
	var in struct {
		Selector string `json:"selector"`
		Computed *bool  `json:"computed"`
		Role     string `json:"role"`
	}
	var con struct {
		Runtime *bool             `json:"runtime"`
		Entries []json.RawMessage `json:"entries"`
		Note    string            `json:"note"`
	}
	if json.Unmarshal(rs[0].StructuredContent, &in) != nil || in.Selector != "#hero-title" || in.Computed == nil || *in.Computed || in.Role != "heading" {
		t.Errorf("preview.inspect: %s", rs[0].StructuredContent)
	}
	if json.Unmarshal(rs[1].StructuredContent, &con) != nil || con.Runtime == nil || *con.Runtime || con.Entries == nil || len(con.Entries) != 0 || !strings.Contains(con.Note, "headless") {
		t.Errorf("preview.getConsole: %s", rs[1].StructuredContent)
	}
}

// TestAuditNeedsBrowserHeadless (issue 17): `webcoding call preview.audit` through the real
// module under wazero is a typed PREVIEW_NEEDS_BROWSER error, not retryable.
func TestAuditNeedsBrowserHeadless(t *testing.T) {
	code, out, stderr := runCLI(t, nil, `{"name":"preview.audit","arguments":{},"_meta":{"toolCallId":"a-1"}}`+"\n", "call")
	rs := results(t, out)
	if len(rs) != 1 || !rs[0].IsError || rs[0].Error == nil || rs[0].Error.Code != "PREVIEW_NEEDS_BROWSER" || rs[0].Error.Retryable {
		t.Fatalf("exit %d, results:\n%s\n%s", code, out, stderr)
	}
}

func TestBadModuleIsAHostFailure(t *testing.T) {
	code, _, stderr := runCLI(t, nil, "", "tools", "--module", "/nonexistent/reactor.wasm")
	if code != exitHost || !strings.Contains(stderr, "read module") {
		t.Fatalf("exit %d, %q", code, stderr)
	}
}

// Through the real module: an unknown --approve name stops agent and call with exit 2; provider
// names and --durable memory are accepted by the core.
func TestApproveAndDurableThroughTheModule(t *testing.T) {
	code, out, stderr := runCLI(t, nil, "", "agent", "--approve", "bogus.tool", "Make it emerald")
	if code != exitUsage || out != "" || !strings.Contains(stderr, `"bogus.tool"`) {
		t.Fatalf("agent --approve bogus.tool: exit %d, stdout %q, stderr %s", code, out, stderr)
	}
	code, out, stderr = runCLI(t, nil, `{"name":"workspace.getStatus"}`+"\n", "call", "--mode", "agent", "--approve", "preview_setTheme", "--durable", "memory")
	if code != exitOK || !strings.Contains(out, `"isError":false`) {
		t.Fatalf("call --approve preview_setTheme --durable memory: exit %d, stdout %s, stderr %s", code, out, stderr)
	}
}
