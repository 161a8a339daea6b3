package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// rawSession speaks newline-delimited JSON-RPC to a Server over LineTransport, byte for byte.
type rawSession struct {
	w     *io.PipeWriter
	lines chan string
	done  chan error
}

func startRaw(t testing.TB, srv *Server, maxBytes int) *rawSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &rawSession{w: inW, lines: make(chan string, 64), done: make(chan error, 1)}
	go func() {
		s.done <- srv.Run(context.Background(), &LineTransport{In: inR, Out: outW, MaxMessageBytes: maxBytes})
		_ = outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() { _ = inW.Close() })
	return s
}

func (s *rawSession) send(t testing.TB, line string) {
	t.Helper()
	if _, err := s.w.Write([]byte(line + "\n")); err != nil {
		t.Fatalf("write: %v", err)
	}
}

type rawResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (s *rawSession) recv(t testing.TB) rawResponse {
	t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			t.Fatal("the server closed its output")
		}
		var r rawResponse
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.JSONRPC != "2.0" {
			t.Fatalf("not a JSON-RPC response: %v: %s", err, l)
		}
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no response within 10 s")
	}
	panic("unreachable")
}

const initializeLine = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
const initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

func (s *rawSession) initialize(t testing.TB) {
	t.Helper()
	s.send(t, initializeLine)
	if r := s.recv(t); r.Error != nil || !strings.Contains(string(r.Result), ServerName) {
		t.Fatalf("initialize: %+v %s", r.Error, r.Result)
	}
	s.send(t, initializedLine)
}

func wantError(t testing.TB, r rawResponse, code int, id string) {
	t.Helper()
	if r.Error == nil || (code != 0 && r.Error.Code != code) || string(r.ID) != id {
		t.Fatalf("got id %s error %+v result %s; want error %d with id %s", r.ID, r.Error, r.Result, code, id)
	}
}

// Bad input gets a JSON-RPC error and the server keeps serving.
func TestBadMessagesAreAnsweredAndTheSessionGoesOn(t *testing.T) {
	srv, core := newFakeServer(t, Options{})
	s := startRaw(t, srv, 4096)

	s.send(t, `{"jsonrpc":"2.0","id":"early","method":"tools/list"}`)
	r := s.recv(t)
	wantError(t, r, 0, `"early"`)
	if !strings.Contains(r.Error.Message, "initializ") {
		t.Errorf("call before initialize: %q does not say why", r.Error.Message)
	}
	s.initialize(t)

	steps := []struct {
		name, line string
		code       int
		id         string
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":1,`, -32700, "null"},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"x\":\"\xff\xfe\"}", -32700, "null"},
		{"batch", `[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, -32600, "null"},
		{"oversized", `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"pad":"` + strings.Repeat("x", 10000) + `"}}`, -32600, "null"},
		{"wrong version", `{"jsonrpc":"1.0","id":5,"method":"ping"}`, -32600, "5"},
		{"unknown method", `{"jsonrpc":"2.0","id":6,"method":"no/such"}`, -32601, "6"},
		{"params not an object", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"oops"}`, 0, "7"},
	}
	for _, st := range steps {
		s.send(t, st.line)
		r := s.recv(t)
		if r.Error == nil || (st.code != 0 && r.Error.Code != st.code) || string(r.ID) != st.id {
			t.Errorf("%s: id %s error %+v result %.100s; want %d with id %s", st.name, r.ID, r.Error, r.Result, st.code, st.id)
		}
		// The session still serves.
		s.send(t, `{"jsonrpc":"2.0","id":"p","method":"ping"}`)
		if r := s.recv(t); r.Error != nil || string(r.ID) != `"p"` {
			t.Fatalf("after %s: ping answered %+v", st.name, r)
		}
	}
	if len(core.calls) != 0 {
		t.Fatalf("bad messages reached the core: %v", core.calls)
	}
	s.send(t, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"demo_read","arguments":{}}}`)
	r = s.recv(t)
	if r.Error != nil || !strings.Contains(string(r.Result), `"structuredContent":{"ok":true}`) {
		t.Fatalf("tools/call after the bad lines: %+v %s", r.Error, r.Result)
	}
	_ = s.w.Close()
	if err := <-s.done; err != nil {
		t.Fatalf("Run after EOF: %v", err)
	}
}

// A client that disconnects while its call is inside the core: the call finishes, Run waits
// for it, nothing crashes.
func TestDisconnectMidCall(t *testing.T) {
	srv, core := newFakeServer(t, Options{})
	s := startRaw(t, srv, 0)
	s.initialize(t)
	s.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"demo_block","arguments":{}}}`)
	<-core.started
	_ = s.w.Close()
	select {
	case err := <-s.done:
		t.Fatalf("Run returned (%v) while a call was inside the core", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(core.release)
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after the call finished")
	}
	if core.inflight.Load() != 0 {
		t.Fatal("Run returned with a call inside the core")
	}
}

// A call the client cancels (notifications/cancelled) while an earlier call holds the core
// never reaches the core; if it is answered at all, with TOOL_CANCELLED.
func TestCancelledQueuedCallNeverRuns(t *testing.T) {
	srv, core := newFakeServer(t, Options{})
	s := startRaw(t, srv, 0)
	s.initialize(t)
	s.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"demo_block","arguments":{}}}`)
	<-core.started
	s.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"demo_read","arguments":{},"_meta":{"toolCallId":"queued"}}}`)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"test"}}`)
	s.send(t, `{"jsonrpc":"2.0","id":3,"method":"ping"}`) // read after the cancellation
	// The cancelled request may be answered (MCP lets the sender ignore it), but only with a
	// TOOL_CANCELLED result or a cancellation error: it did not run.
	seen := map[string]bool{}
	check := func(r rawResponse) {
		t.Helper()
		id := string(r.ID)
		switch {
		case id == "2" && r.Error != nil && !strings.Contains(r.Error.Message, "cancel"):
			t.Fatalf("the cancelled call got %+v, want a TOOL_CANCELLED result or a cancellation error", r.Error)
		case id == "2" && r.Error == nil && !strings.Contains(string(r.Result), `"code":"TOOL_CANCELLED"`):
			t.Fatalf("the cancelled call got %s, want a TOOL_CANCELLED result", r.Result)
		case (id == "1" || id == "3") && r.Error != nil:
			t.Fatalf("request %s failed: %+v", id, r.Error)
		case id != "1" && id != "2" && id != "3":
			t.Fatalf("response to unknown id %s", id)
		}
		seen[id] = true
	}
	// The SDK delivers notifications/cancelled asynchronously: release the core only once the
	// queued call was answered as cancelled, or — if the server chose not to answer it — after
	// a grace period that leaves the cancellation ample time to land.
	for grace := time.Now().Add(2 * time.Second); !(seen["2"] && seen["3"]) && time.Now().Before(grace); {
		select {
		case l, ok := <-s.lines:
			if !ok {
				t.Fatal("the server closed its output")
			}
			var r rawResponse
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("not a JSON-RPC response: %v: %s", err, l)
			}
			check(r)
		case <-time.After(20 * time.Millisecond):
		}
	}
	close(core.release)
	for !seen["1"] || !seen["3"] {
		check(s.recv(t))
	}
	srv.Wait()
	for _, c := range core.calls {
		if strings.Contains(c, `"queued"`) {
			t.Fatalf("the cancelled call reached the core: %s", c)
		}
	}
}

func TestReadLine(t *testing.T) {
	in := "a\r\n" + strings.Repeat("b", 20) + "\nc"
	r := bufio.NewReaderSize(strings.NewReader(in), 16)
	line, tooLong, err := readLine(r, 8)
	if string(line) != "a" || tooLong != 0 || err != nil {
		t.Fatalf("1: %q %d %v", line, tooLong, err)
	}
	line, tooLong, err = readLine(r, 8)
	if line != nil || tooLong != 21 || err != nil {
		t.Fatalf("2: %q %d %v", line, tooLong, err)
	}
	line, tooLong, err = readLine(r, 8)
	if string(line) != "c" || tooLong != 0 || !errors.Is(err, io.EOF) {
		t.Fatalf("3: %q %d %v", line, tooLong, err)
	}
}
