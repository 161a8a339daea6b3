package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// These run `webcoding mcp` as a subprocess, the way an MCP client starts it.

// syncBuffer is a goroutine-safe bytes.Buffer for a subprocess's stderr.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func mcpCommand(t testing.TB, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(webcodingBinary(t), append([]string{"mcp", "--module", testModule}, args...)...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	return cmd, stderr
}

func TestStdioBinaryWithTheGoClient(t *testing.T) {
	dir := seedFolder(t)
	cmd, stderr := mcpCommand(t, "--dir", dir, "--approve", "workspace_writeFile,workspace.saveAll", "--allow-destructive")
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "stdio-test", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, stderr)
	}
	if info := cs.InitializeResult(); info == nil || info.ServerInfo.Name != ServerName {
		t.Fatalf("initialize result %+v", info)
	}
	n := 0
	for tl, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(tl.Name, ".") || tl.InputSchema == nil || tl.Annotations == nil {
			t.Errorf("tool %q: dotted name, or schema/annotations missing", tl.Name)
		}
		n++
	}
	if n != wantTools {
		t.Fatalf("%d tools over stdio, want %d", n, wantTools)
	}
	if sc := mustSucceed(t, call(t, cs, "workspace_readFile", map[string]any{"path": "index.html"}, nil)); !strings.Contains(sc["source"].(string), "<h1>Hi</h1>") {
		t.Fatalf("readFile over stdio: %v", sc)
	}
	msg := mustFail(t, call(t, cs, "workspace_createFile", map[string]any{"path": "new.css", "source": ""}, nil), "TOOL_APPROVAL_REQUIRED")
	if !strings.Contains(msg, "--approve workspace_createFile") {
		t.Errorf("message %q does not name the flag", msg)
	}
	mustSucceed(t, call(t, cs, "workspace_writeFile", map[string]any{"path": "styles.css", "source": "h1{color:green}\n"}, nil))
	mustSucceed(t, call(t, cs, "workspace_saveAll", map[string]any{}, nil))
	if got := readDisk(t, filepath.Join(dir, "styles.css")); got != "h1{color:green}\n" {
		t.Fatalf("saveAll over stdio: %q", got)
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if err := cmd.Wait(); err != nil && !strings.Contains(err.Error(), "wait: no child processes") && !strings.Contains(err.Error(), "Wait was already called") {
		t.Fatalf("the server exited with %v\nstderr:\n%s", err, stderr)
	}
	if cmd.ProcessState != nil && cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", cmd.ProcessState.ExitCode(), stderr)
	}
	if strings.Contains(stderr.String(), "panic") {
		t.Fatalf("stderr:\n%s", stderr)
	}
}

// rawProcess speaks raw lines to the binary and checks that every stdout line is a JSON-RPC
// message.
type rawProcess struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *syncBuffer
}

func startRawProcess(t testing.TB, args ...string) *rawProcess {
	t.Helper()
	cmd, stderr := mcpCommand(t, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &rawProcess{cmd: cmd, stdin: stdin, lines: make(chan string, 64), stderr: stderr}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return p
}

func (p *rawProcess) send(t testing.TB, line string) {
	t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		t.Fatalf("write: %v\nstderr:\n%s", err, p.stderr)
	}
}

func (p *rawProcess) recv(t testing.TB) rawResponse {
	t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			t.Fatalf("stdout closed\nstderr:\n%s", p.stderr)
		}
		var r rawResponse
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.JSONRPC != "2.0" {
			t.Fatalf("stdout carried a line that is not JSON-RPC: %v: %.300s", err, l)
		}
		return r
	case <-time.After(30 * time.Second):
		t.Fatalf("no response within 30 s\nstderr:\n%s", p.stderr)
	}
	panic("unreachable")
}

// Bad input to the binary: clear protocol errors, the server keeps serving; a client that
// disconnects mid-call: the process exits 0, no crash, no partial file.
func TestStdioBinaryBadInputAndDisconnect(t *testing.T) {
	dir := seedFolder(t)
	p := startRawProcess(t, "--dir", dir, "--approve", "all", "--allow-destructive", "--autosave")

	p.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	wantError(t, p.recv(t), -32600, "1") // before initialize
	p.send(t, initializeLine)
	if r := p.recv(t); r.Error != nil {
		t.Fatalf("initialize: %+v", r.Error)
	}
	p.send(t, initializedLine)
	p.send(t, `{"jsonrpc":"2.0","id":2,`)
	wantError(t, p.recv(t), -32700, "null")
	p.send(t, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":{\"x\":\"\xc3\x28\"}}")
	wantError(t, p.recv(t), -32700, "null")
	p.send(t, `{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"x"}}`)
	wantError(t, p.recv(t), 0, "4")
	p.send(t, `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"`+strings.Repeat("x", DefaultMaxMessageBytes)+`"}}`)
	wantError(t, p.recv(t), -32600, "null")
	p.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	if r := p.recv(t); r.Error != nil || string(r.ID) != "6" {
		t.Fatalf("ping after bad input: %+v", r)
	}

	// Disconnect right after a mutation was sent (autosave writes the folder).
	big := strings.Repeat("/* padding */\n", 20000)
	p.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"workspace_writeFile","arguments":{"path":"styles.css","source":`+jsonQuote(big)+`}}}`)
	_ = p.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v\nstderr:\n%s", err, p.stderr)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the server did not exit after stdin closed\nstderr:\n%s", p.stderr)
	}
	if s := p.stderr.String(); strings.Contains(s, "panic") || strings.Contains(s, "fatal error") {
		t.Fatalf("stderr:\n%s", s)
	}
	// The call either never ran or ran and saved completely: never a partial file.
	if got := readDisk(t, filepath.Join(dir, "styles.css")); got != "h1{color:red}\n" && got != big {
		t.Fatalf("styles.css is %d bytes, neither the old nor the new content", len(got))
	}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Flag errors: exit 2 for bad flags, 1 for a backend this build cannot serve; nothing on stdout.
func TestBinaryFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		exit int
		want string
	}{
		{[]string{"--names", "dotted"}, 2, "--names must be provider or canonical"},
		{[]string{"--approve", "a,,b"}, 2, "--approve must be all, none or TOOL,TOOL,..."},
		{[]string{"--http", "a:b:c"}, 2, "--http"},
		{[]string{"--http", "0.0.0.0:0"}, 2, "--allow-remote"},
		{[]string{"--durable", "redis://user:secret@127.0.0.1:1"}, 1, "--durable"}, // nothing listens on port 1
		{[]string{"--durable", "sqlite:x"}, 2, "--durable must be"},
		{[]string{"extra"}, 2, "unexpected argument"},
	} {
		cmd, stderr := mcpCommand(t, c.args...)
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.exit || !strings.Contains(stderr.String(), c.want) || len(out) != 0 {
			t.Errorf("mcp %v: exit %d, stdout %q, stderr %q; want exit %d mentioning %q", c.args, code, out, stderr, c.exit, c.want)
		}
		if strings.Contains(stderr.String(), "secret") {
			t.Errorf("mcp %v: the password reached stderr", c.args)
		}
	}
}

// TestStdioContextToolsHeadless (issue 17): the context tools over the real binary's stdio,
// as an MCP client sends tools/call: preview_inspect {"selector":"h1"} answers from the parsed
// entry page (computed false, the file and line of the hero heading, no box), preview_getConsole
// says runtime false with a note and no entries, and preview_audit is an error result
// (isError true) whose _meta.error is PREVIEW_NEEDS_BROWSER {operation: "audit"}, not retryable.
func TestStdioContextToolsHeadless(t *testing.T) {
	p := startRawProcess(t)
	p.send(t, initializeLine)
	if r := p.recv(t); r.Error != nil {
		t.Fatalf("initialize: %+v", r.Error)
	}
	p.send(t, initializedLine)
	type result struct {
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
		Meta              struct {
			Error *struct {
				Code      string         `json:"code"`
				Retryable bool           `json:"retryable"`
				Details   map[string]any `json:"details"`
			} `json:"error"`
		} `json:"_meta"`
	}
	callRaw := func(name, args string) result {
		t.Helper()
		p.send(t, `{"jsonrpc":"2.0","id":`+jsonQuote(name)+`,"method":"tools/call","params":{"name":"`+name+`","arguments":`+args+`}}`)
		r := p.recv(t)
		if r.Error != nil || string(r.ID) != jsonQuote(name) {
			t.Fatalf("%s: %+v %s", name, r.Error, r.ID)
		}
		var res result
		if err := json.Unmarshal(r.Result, &res); err != nil {
			t.Fatalf("%s: %v: %s", name, err, r.Result)
		}
		return res
	}
	in := callRaw("preview_inspect", `{"selector":"h1"}`)
	if sc := in.StructuredContent; in.IsError || sc["computed"] != false || sc["selector"] != "#hero-title" || sc["path"] != "index.html" ||
		sc["line"] != float64(12) || sc["box"] != nil || !strings.Contains(fmt.Sprint(sc["note"]), "computed: false") {
		t.Errorf("preview_inspect over stdio: %+v", in)
	}
	con := callRaw("preview_getConsole", `{}`)
	if sc := con.StructuredContent; con.IsError || sc["runtime"] != false || !strings.Contains(fmt.Sprint(sc["note"]), "headless") || fmt.Sprint(sc["entries"]) != "[]" {
		t.Errorf("preview_getConsole over stdio: %+v", con)
	}
	au := callRaw("preview_audit", `{}`)
	if e := au.Meta.Error; !au.IsError || e == nil || e.Code != "PREVIEW_NEEDS_BROWSER" || e.Retryable || e.Details["operation"] != "audit" {
		t.Errorf("preview_audit over stdio: %+v %+v", au, au.Meta.Error)
	}
}
