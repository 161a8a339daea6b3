package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/host/wasmhost"
)

// A client that writes its requests and closes stdin (printf ... | webcoding mcp) gets every
// answer, and the autosaved write is on disk with its reply.
func TestStdioBinaryAnswersEveryRequestReadBeforeEOF(t *testing.T) {
	dir := seedFolder(t)
	cmd, stderr := mcpCommand(t, "--dir", dir, "--approve", "workspace_writeFile", "--autosave", "--allow-destructive")
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		initializeLine,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"workspace_writeFile","arguments":{"path":"styles.css","source":"h1{color:blue}\n"}}}`,
	}, "\n") + "\n")
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.Output(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("no exit within 60 s\nstderr:\n%s", stderr)
	}
	if err != nil {
		t.Fatalf("exit: %v\nstderr:\n%s", err, stderr)
	}
	ids := map[string]rawResponse{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r rawResponse
		if json.Unmarshal([]byte(l), &r) != nil {
			t.Fatalf("stdout line is not JSON-RPC: %.200s", l)
		}
		ids[string(r.ID)] = r
	}
	for _, id := range []string{`"init"`, "2", "3"} {
		if r, ok := ids[id]; !ok || r.Error != nil {
			t.Errorf("request %s: answered %v, %+v\nstdout:\n%.2000s\nstderr:\n%s", id, ok, r.Error, out, stderr)
		}
	}
	if !strings.Contains(string(ids["3"].Result), `"saved":true`) {
		t.Errorf("writeFile answer %.500s has no autosave", ids["3"].Result)
	}
	if got := readDisk(t, filepath.Join(dir, "styles.css")); got != "h1{color:blue}\n" {
		t.Errorf("styles.css is %q", got)
	}
	if strings.Contains(stderr.String(), "dropped") || strings.Contains(stderr.String(), "unsaved") {
		t.Errorf("stderr reports drops or unsaved edits:\n%s", stderr)
	}
}

// A request still running when DrainTimeout ends is dropped, and the log says so.
func TestEOFDrainTimeoutLogsDroppedRequests(t *testing.T) {
	srv, core := newFakeServer(t, Options{})
	var in bytes.Buffer
	in.WriteString(initializeLine + "\n" + `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"demo_block"}}` + "\n")
	var out, log syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(context.Background(), &LineTransport{In: &in, Out: &out, Log: &log, DrainTimeout: 200 * time.Millisecond})
	}()
	select {
	case <-core.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the call read before end of input never reached the core")
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(log.String(), "1 request(s) answered, 1 dropped") {
		if time.Now().After(deadline) {
			t.Fatalf("log %q does not report the dropped request", log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(core.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), `"id":9`) {
		t.Errorf("the dropped request was answered after EOF was reported: %s", out.String())
	}
}

// Requests the SDK would answer with code 0 or a Go type name get standard JSON-RPC errors.
func TestStandardJSONRPCErrorCodes(t *testing.T) {
	srv, core := newFakeServer(t, Options{})
	s := startRaw(t, srv, 0)

	s.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	wantError(t, s.recv(t), -32600, "1")
	s.send(t, `{"jsonrpc":"2.0","id":2,"method":"initialize"}`)
	wantError(t, s.recv(t), -32602, "2")
	s.initialize(t)
	s.send(t, initializeLine)
	wantError(t, s.recv(t), -32600, `"init"`)
	for i, params := range []string{`"x"`, `[]`, `{"name":7}`, `{"name":"demo_read","arguments":"x"}`, `{"name":"demo_read","_meta":1}`} {
		s.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, 10+i, params))
	}
	for range 5 {
		r := s.recv(t)
		if r.Error == nil || r.Error.Code != -32602 || strings.Contains(r.Error.Message, "mcp.") || strings.Contains(r.Error.Message, "Go value") {
			t.Errorf("bad params: %+v", r.Error)
		}
	}

	// A repeated key in arguments is the registry guard's TOOL_VALIDATION_FAILED result, and
	// the call never reaches the core.
	before := len(core.calls)
	s.send(t, `{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"demo_read","arguments":{"path":"a","path":"b"}}}`)
	r := s.recv(t)
	var res struct {
		IsError bool `json:"isError"`
		Meta    struct {
			Error struct {
				Code    string         `json:"code"`
				Details map[string]any `json:"details"`
			} `json:"error"`
		} `json:"_meta"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || !res.IsError ||
		res.Meta.Error.Code != "TOOL_VALIDATION_FAILED" || res.Meta.Error.Details["reason"] != "duplicate-key" {
		t.Errorf("repeated key: %+v %s", r.Error, r.Result)
	}
	core.mu.Lock()
	after := len(core.calls)
	core.mu.Unlock()
	if after != before {
		t.Errorf("the refused call reached the core")
	}
}

// workspace.disconnectFolder needs --allow-destructive even with --approve all: headless, the
// folder can never be linked again.
func TestModuleDisconnectFolderNeedsAllowDestructive(t *testing.T) {
	dir := seedFolder(t)
	cs, _ := moduleServer(t, dir, Options{Approval: Approval{All: true}})
	msg := mustFail(t, call(t, cs, "workspace_disconnectFolder", map[string]any{}, nil), "TOOL_APPROVAL_REQUIRED")
	if !strings.Contains(msg, "--allow-destructive") {
		t.Fatalf("message %q does not name --allow-destructive", msg)
	}
	if sc := mustSucceed(t, call(t, cs, "workspace_getStatus", map[string]any{}, nil)); !strings.Contains(jsonString(sc), `"folderLinked":true`) {
		t.Fatalf("the folder was unlinked: %v", sc)
	}
	cs, _ = moduleServer(t, seedFolder(t), Options{Approval: Approval{All: true}, AllowDestructive: true})
	mustSucceed(t, call(t, cs, "workspace_disconnectFolder", map[string]any{}, nil))
}

// At exit, edits that were not saved are named on the log.
func TestWarnUnsavedNamesDirtyPaths(t *testing.T) {
	dir := seedFolder(t)
	h, err := wasmhost.New(context.Background(), wasmhost.Options{ModulePath: testModule, AbandonOnDeadline: true, FolderDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	var log syncBuffer
	srv, err := New(context.Background(), h, Options{Approval: Approval{All: true}, AllowDestructive: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if line := srv.WarnUnsaved(context.Background()); line != "" {
		t.Fatalf("clean workspace: %q", line)
	}
	cs := connect(t, srv)
	mustSucceed(t, call(t, cs, "workspace_writeFile", map[string]any{"path": "styles.css", "source": "h1{}"}, nil))
	mustSucceed(t, call(t, cs, "workspace_deleteFile", map[string]any{"path": "app.js"}, nil))
	line := srv.WarnUnsaved(context.Background())
	for _, want := range []string{"styles.css", "app.js", "not written"} {
		if !strings.Contains(line, want) || !strings.Contains(log.String(), want) {
			t.Errorf("warning %q (log %q) does not mention %q", line, log.String(), want)
		}
	}
	mustSucceed(t, call(t, cs, "workspace_saveAll", map[string]any{}, nil))
	if line := srv.WarnUnsaved(context.Background()); line != "" {
		t.Errorf("after saveAll: %q", line)
	}
}

// HTTP: one endpoint (/mcp, and / for compatibility), 404 elsewhere; a batch is a JSON-RPC
// -32600 error even as the first request and with a session id; a request that arrives on a
// non-loopback address is refused unless AllowRemote.
func TestHTTPPathBatchAndRemote(t *testing.T) {
	srv, _ := newFakeServer(t, Options{})
	ts := httptest.NewServer(srv.HTTPHandler())
	defer ts.Close()
	for path, want := range map[string]int{"/mcp": 200, "/": 200, "/other": 404, "/mcp/x": 404} {
		if code := post(t, ts.URL+path, ""); code != want {
			t.Errorf("POST %s: %d, want %d", path, code, want)
		}
	}
	for _, sid := range []string{"", "some-session"} {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(" ["+initializeBody+"]"))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			ID    any `json:"id"`
			Error struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err != nil || body.Error.Code != -32600 || body.ID != nil || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("batch (session %q): status %d, %v, %+v", sid, resp.StatusCode, err, body)
		}
	}

	remote := func(s *Server) int {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(initializeBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 80}))
		w := httptest.NewRecorder()
		s.HTTPHandler().ServeHTTP(w, req)
		return w.Code
	}
	if code := remote(srv); code != http.StatusForbidden {
		t.Errorf("request on a non-loopback address: %d, want 403", code)
	}
	open, _ := newFakeServer(t, Options{AllowRemote: true})
	if code := remote(open); code == http.StatusForbidden {
		t.Errorf("AllowRemote: request on a non-loopback address refused")
	}

	if ln, err := srv.Listen("0.0.0.0:0"); err == nil || !strings.Contains(err.Error(), "--allow-remote") {
		if ln != nil {
			ln.Close()
		}
		t.Errorf("Listen on 0.0.0.0 without AllowRemote: %v", err)
	}
	ln, err := srv.Listen("0")
	if err != nil || !loopbackAddr(ln.Addr()) {
		t.Fatalf("Listen(\"0\"): %v", err)
	}
	ln.Close()
	ln, err = open.Listen("0.0.0.0:0")
	if err != nil {
		t.Fatalf("Listen on 0.0.0.0 with AllowRemote: %v", err)
	}
	ln.Close()
}

// The binary names unsaved edits on stderr when stdin ends.
func TestStdioBinaryWarnsAboutUnsavedEditsAtExit(t *testing.T) {
	dir := seedFolder(t)
	cmd, stderr := mcpCommand(t, "--dir", dir, "--approve", "workspace_writeFile")
	cmd.Stdin = strings.NewReader(initializeLine + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"workspace_writeFile","arguments":{"path":"styles.css","source":"h1{}"}}}` + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("exit: %v\nstderr:\n%s", err, stderr)
	}
	if !strings.Contains(string(out), `"id":2`) {
		t.Fatalf("the write was not answered:\n%s", out)
	}
	if s := stderr.String(); !strings.Contains(s, "styles.css") || !strings.Contains(s, "not written") {
		t.Fatalf("stderr does not name the unsaved edit:\n%s", s)
	}
	if got := readDisk(t, filepath.Join(dir, "styles.css")); got != "h1{color:red}\n" {
		t.Fatalf("styles.css changed on disk without a save: %q", got)
	}
}
