package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

func TestUsageAndBadFlagsExit2(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"nope"},
		{"call", "--mode", "sideways"},
		{"call", "--approve", "a,,b"},
		{"agent"},
		{"agent", "  "},
		{"agent", "a", "b"},
		{"agent", "--approve", ",", "p"},
		{"agent", "--provider", "x", "p"},
		{"export"},
		{"preview", "x"},
		{"call", "--no-such-flag"},
		{"call", "extra-arg"},
		{"tools", "--pretty=maybe"},
	} {
		code, _, stderr := runCLI(t, &fakeHost{}, "", args...)
		if code != exitUsage || stderr == "" {
			t.Errorf("webcoding %q: exit %d, stderr %q; want 2 with a message", args, code, stderr)
		}
	}
	if code, out, _ := runCLI(t, &fakeHost{}, "", "help"); code != 0 || !strings.Contains(out, "tools") || !strings.Contains(out, "call") {
		t.Errorf("help: exit %d, %q", code, out)
	}
}

func TestToolsFollowsEveryPage(t *testing.T) {
	f := &fakeHost{pages: []string{
		`{"tools":[{"name":"a.one","inputSchema":{"type":"object"}}],"nextCursor":"c1"}`,
		`{"tools":[{"name":"b.two","description":"<b>&</b>","inputSchema":{"type":"object"}}],"nextCursor":"c2"}`,
		`{"tools":[{"name":"c.three","inputSchema":{"type":"object"}}]}`,
	}}
	code, out, stderr := runCLI(t, f, "", "tools")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `{"tools":[{"name":"a.one","inputSchema":{"type":"object"}},{"name":"b.two","description":"<b>&</b>","inputSchema":{"type":"object"}},{"name":"c.three","inputSchema":{"type":"object"}}]}` + "\n"
	if out != want {
		t.Fatalf("stdout\n%s\nwant\n%s", out, want)
	}
	if len(f.requests) != 3 || strings.Contains(string(f.requests[0]), "params") || !strings.Contains(string(f.requests[2]), `"params":{"cursor":"c2"}`) {
		t.Fatalf("requests: %q", f.requests)
	}
	if !f.closed {
		t.Fatal("host not closed")
	}
}

func TestToolsFailures(t *testing.T) {
	for name, f := range map[string]*fakeHost{
		"repeated cursor": {pages: []string{`{"tools":[],"nextCursor":"c1"}`, `{"tools":[],"nextCursor":"c1"}`}},
		"no tools array":  {pages: []string{`{"nextCursor":""}`}},
		"rpc error":       {rpcError: `{"code":-32601,"message":"not implemented yet"}`},
	} {
		t.Run(name, func(t *testing.T) {
			code, out, stderr := runCLI(t, f, "", "tools")
			if code != exitHost || out != "" || !strings.Contains(stderr, "tools/list") {
				t.Fatalf("exit %d, stdout %q, stderr %q; want 1, nothing, a tools/list error", code, out, stderr)
			}
		})
	}
}

// results parses stdout as JSON Lines of canonical results.
func results(t *testing.T, out string) []*mcp.CallToolResult {
	t.Helper()
	var rs []*mcp.CallToolResult
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if out == "" {
			break
		}
		r, err := mcp.ParseCallToolResult([]byte(line))
		if err != nil {
			t.Fatalf("line %d is not a canonical result: %v\n%s", i+1, err, line)
		}
		rs = append(rs, r)
	}
	return rs
}

func sentParams(t *testing.T, r *mcp.CallToolResult) map[string]json.RawMessage {
	t.Helper()
	var sc struct{ Params map[string]json.RawMessage }
	if err := json.Unmarshal(r.StructuredContent, &sc); err != nil {
		t.Fatal(err)
	}
	return sc.Params
}

func TestCallAddsTheCLIContext(t *testing.T) {
	f := &fakeHost{}
	stdin := `{"name":"workspace.readFile","arguments":{"path":"<a&b>.html"}}` + "\n" +
		"\n   \r\n" + // blank lines are skipped
		`{"name":"x","_meta":{"toolCallId":"mine","idempotencyKey":"k1","custom":{"keep":true}}}` + "\r\n" +
		`{"name":"y","_meta":{"mode":"agent"}}` // last line without a newline
	code, out, stderr := runCLI(t, f, stdin, "call", "--mode", "agent")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rs := results(t, out)
	if len(rs) != 3 {
		t.Fatalf("%d result lines, want 3:\n%s", len(rs), out)
	}
	p0 := sentParams(t, rs[0])
	if string(p0["arguments"]) != `{"path":"<a&b>.html"}` {
		t.Errorf("arguments were re-encoded: %s", p0["arguments"])
	}
	var m0 mcp.CallMeta
	json.Unmarshal(p0["_meta"], &m0)
	if m0.Source != "local" || m0.Mode != "agent" || !strings.HasPrefix(m0.ToolCallID, "cli-") || rs[0].ToolCallID != m0.ToolCallID {
		t.Errorf("meta %+v, result id %q", m0, rs[0].ToolCallID)
	}
	var m1 map[string]json.RawMessage
	json.Unmarshal(sentParams(t, rs[1])["_meta"], &m1)
	if string(m1["toolCallId"]) != `"mine"` || string(m1["idempotencyKey"]) != `"k1"` || string(m1["custom"]) != `{"keep":true}` {
		t.Errorf("line meta not kept: %s", sentParams(t, rs[1])["_meta"])
	}
	if rs[0].ToolCallID == rs[2].ToolCallID {
		t.Error("generated toolCallIds repeat")
	}
}

func TestCallMalformedLinesYieldErrorResults(t *testing.T) {
	lines := []string{
		`{"name":`,                    // malformed
		"{\"name\":\"a\xff\"}",        // not UTF-8
		`{"name":"a","Name":"b"}`,     // case-variant key
		`{"name":"a","name":"b"}`,     // repeated key
		`{"name":"a","arguments":[]}`, // wrong type
		`[1,2]`,                       // not an object
		`{"name":"a","_meta":{"toolCallId":"t-9","mode":"direct"}}`, // mode escape from agent
		`{"name":"a","_meta":{"source":"model"}}`,                   // provenance forgery
	}
	f := &fakeHost{}
	code, out, stderr := runCLI(t, f, strings.Join(lines, "\n")+"\n", "call", "--mode", "agent")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rs := results(t, out)
	if len(rs) != len(lines) {
		t.Fatalf("%d results for %d lines", len(rs), len(lines))
	}
	for i, r := range rs {
		if !r.IsError || r.Error.Code != mcp.CodeToolValidationFailed {
			t.Errorf("line %d (%q): got %+v, want TOOL_VALIDATION_FAILED", i+1, lines[i], r.Error)
		}
	}
	if rs[6].ToolCallID != "t-9" {
		t.Errorf("the line's toolCallId was not kept on its error: %q", rs[6].ToolCallID)
	}
	for _, r := range f.requests {
		if strings.Contains(string(r), `"tools/call"`) {
			t.Errorf("a refused line reached the module: %q", r)
		}
	}
}

func TestCallTooLongLine(t *testing.T) {
	long := `{"name":"a","arguments":{"s":"` + strings.Repeat("x", maxLineBytes) + `"}}`
	code, out, _ := runCLI(t, &fakeHost{}, long+"\n"+`{"name":"b"}`+"\n", "call")
	rs := results(t, out)
	if code != 0 || len(rs) != 2 {
		t.Fatalf("exit %d, %d results", code, len(rs))
	}
	d, _ := json.Marshal(rs[0].Error.Details)
	if rs[0].Error.Code != mcp.CodeToolValidationFailed || !strings.Contains(string(d), `"reason":"too-large"`) {
		t.Fatalf("long line: %+v", rs[0].Error)
	}
	if rs[1].IsError {
		t.Fatalf("the line after the long one failed: %+v", rs[1].Error)
	}
}

func TestCallJSONRPCErrorBecomesAResult(t *testing.T) {
	f := &fakeHost{rpcError: `{"code":-32601,"message":"not implemented yet"}`}
	code, out, _ := runCLI(t, f, `{"name":"a","_meta":{"toolCallId":"id-1"}}`+"\n", "call")
	rs := results(t, out)
	if code != 0 || len(rs) != 1 || rs[0].Error.Code != mcp.CodeToolRegistryNotReady || rs[0].ToolCallID != "id-1" {
		t.Fatalf("exit %d, %s", code, out)
	}
}

func TestCallHostFailureStopsWithExit1(t *testing.T) {
	f := &fakeHost{callErr: fmt.Errorf("wasmhost: deadline: %w", errors.New("instance reset"))}
	code, out, stderr := runCLI(t, f, `{"name":"a"}`+"\n"+`{"name":"b"}`+"\n", "call")
	rs := results(t, out)
	if code != exitHost || len(rs) != 1 || rs[0].Error.Code != mcp.CodeToolExecutionUnknown || !strings.Contains(stderr, "instance reset") {
		t.Fatalf("exit %d, stdout %s, stderr %s", code, out, stderr)
	}
}

// --durable memory configures the core's in-memory durable store; a value that is neither
// memory nor a redis:// or postgres:// URL with a host is refused with exit 2 before the module
// starts, without echoing credentials. (URLs: durable_test.go.)
func TestCallDurable(t *testing.T) {
	for _, v := range []string{"mysql://alice:s3cret@cache.example:6379/0", "redis://bob:hunter2@", "bogus", "u:pw@host", "postgres:///x?password=p2"} {
		f := &fakeHost{}
		code, out, stderr := runCLI(t, f, `{"name":"a"}`+"\n", "call", "--durable", v)
		if code != exitUsage || out != "" || len(f.requests) != 0 || !strings.Contains(stderr, "--durable") {
			t.Errorf("--durable %s: exit %d, stdout %q, %d requests, stderr %q", v, code, out, len(f.requests), stderr)
		}
		for _, secret := range []string{"alice", "s3cret", "bob", "hunter2", "p2", "pw"} {
			if strings.Contains(stderr, secret) {
				t.Errorf("--durable %s: stderr shows %q: %s", v, secret, stderr)
			}
		}
	}
	f := &fakeHost{}
	if code, _, stderr := runCLI(t, f, `{"name":"a"}`+"\n", "call", "--durable", "memory"); code != 0 {
		t.Fatalf("--durable memory: exit %d: %s", code, stderr)
	}
	if got := strings.Join(f.configs, "|"); got != `{"durable":{"backend":"memory"}}` {
		t.Fatalf("--durable memory: configure %s", got)
	}
}

// TestApproveBecomesStaticApproval: in agent mode --approve configures the session's static
// approver (destructive tools included: the CLI's flag is the person's decision); in direct
// mode no configuration is sent.
func TestApproveBecomesStaticApproval(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // "" = no session/configure
	}{
		{[]string{"call", "--mode", "agent"}, `{"approval":{"mode":"static"}}`},
		{[]string{"call", "--mode", "agent", "--approve", "none"}, `{"approval":{"mode":"static"}}`},
		{[]string{"call", "--mode", "agent", "--approve", "all"}, `{"approval":{"all":true,"allowDestructive":true,"mode":"static"}}`},
		{[]string{"call", "--mode", "agent", "--approve", "workspace.writeFile, workspace.saveAll"}, `{"approval":{"allowDestructive":true,"mode":"static","tools":["workspace.writeFile","workspace.saveAll"]}}`},
		{[]string{"call", "--mode", "agent", "--approve", "workspace_writeFile"}, `{"approval":{"allowDestructive":true,"mode":"static","tools":["workspace.writeFile"]}}`},
		{[]string{"call", "--mode", "agent", "--approve", "all", "--durable", "memory"}, `{"approval":{"all":true,"allowDestructive":true,"mode":"static"},"durable":{"backend":"memory"}}`},
		{[]string{"call", "--approve", "all"}, ""},
	} {
		f := &fakeHost{pages: []string{approveCatalog}}
		code, _, stderr := runCLI(t, f, `{"name":"a"}`+"\n", c.args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", c.args, code, stderr)
		}
		got := strings.Join(f.configs, "|")
		if got != c.want {
			t.Errorf("%q: configure %s, want %s", c.args, got, c.want)
		}
		if direct := !slices.Contains(c.args, "agent"); direct != strings.Contains(stderr, "--approve is ignored in --mode direct") {
			t.Errorf("%q: direct-mode note %v in stderr %q", c.args, direct, stderr)
		}
	}
}

const approveCatalog = `{"tools":[{"name":"workspace.writeFile","inputSchema":{"type":"object"}},{"name":"workspace.saveAll","inputSchema":{"type":"object"}}]}`

// An --approve name that is not a tool (canonical or provider form) is a usage error naming it;
// no tool call runs.
func TestApproveUnknownToolExit2(t *testing.T) {
	f := &fakeHost{pages: []string{approveCatalog}}
	code, out, stderr := runCLI(t, f, `{"name":"a"}`+"\n", "call", "--mode", "agent", "--approve", "workspace.writeFile,bogus.tool,workspace_nope")
	if code != exitUsage || out != "" || !strings.Contains(stderr, `"bogus.tool"`) || !strings.Contains(stderr, `"workspace_nope"`) ||
		strings.Contains(stderr, `"workspace.writeFile"`) || !strings.Contains(stderr, "webcoding tools") || len(f.configs) != 0 {
		t.Fatalf("exit %d, stdout %q, configs %q, stderr %s", code, out, f.configs, stderr)
	}
	for _, r := range f.requests {
		if strings.Contains(string(r), `"tools/call"`) {
			t.Fatalf("a call ran: %s", r)
		}
	}
}

// A bad flag prints the error and the short usage once, not Go's flag list; -h prints the list.
func TestBadFlagPrintsShortUsageOnly(t *testing.T) {
	for _, args := range [][]string{
		{"call", "--no-such-flag"},
		{"agent", "--no-such-flag", "p"},
		{"preview", "--out"},
	} {
		code, _, stderr := runCLI(t, &fakeHost{}, "", args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d", args, code)
		}
		if strings.Contains(stderr, "host-timeout duration") || strings.Count(stderr, "usage: webcoding "+args[0]) != 1 ||
			!strings.Contains(stderr, "run 'webcoding "+args[0]+" -h' for flags") || strings.Count(stderr, "flag") < 1 {
			t.Errorf("%q: stderr\n%s", args, stderr)
		}
	}
	code, out, stderr := runCLI(t, &fakeHost{}, "", "call", "-h")
	if code != exitOK || out != "" || !strings.Contains(stderr, "usage: webcoding call ") || !strings.Contains(stderr, "-host-timeout duration") {
		t.Errorf("call -h: exit %d, stdout %q, stderr\n%s", code, out, stderr)
	}
}
