package fakeprovider

import (
	"embed"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

//go:embed testdata/*
var testdata embed.FS

// Body returns the constructed response body testdata/<name>; it panics when the file is
// missing (a test bug).
func Body(name string) []byte {
	b, err := testdata.ReadFile("testdata/" + name)
	if err != nil {
		panic("fakeprovider: " + err.Error())
	}
	return b
}

// Step is one scripted answer. The server answers the n-th request with the n-th step:
// Status (default 200), Header, and Body (or the testdata file BodyFile). Hang holds the
// request until the client gives up (a provider that never answers). Check, when set,
// inspects the request in addition to the default checks.
//
// Streams (issue 16): the body is replayed byte for byte; Cuts (byte offsets, ascending) or
// CutEvery (a piece every n bytes) choose where it is split, each piece written and flushed
// on its own after ChunkDelay, so a client sees exactly those chunk boundaries (Offset finds
// one inside a UTF-8 sequence or a JSON string). HangAfter holds the response open after the
// last piece until the client gives up (a stream that stalls; Aborted then closes).
// A .sse BodyFile is served as text/event-stream.
type Step struct {
	Status     int
	Header     map[string]string
	Body       []byte
	BodyFile   string
	Hang       bool
	Check      func(t testing.TB, r Received)
	Cuts       []int
	CutEvery   int
	ChunkDelay time.Duration
	HangAfter  bool
}

// Offset returns the offset in body that lies into bytes after the start of the first
// occurrence of substr, for Step.Cuts: Offset(b, "에", 1) cuts inside that UTF-8 sequence,
// Offset(b, `"emer`, 3) inside a JSON string. It panics when substr is absent (a test bug).
func Offset(body []byte, substr string, into int) int {
	i := strings.Index(string(body), substr)
	if i < 0 {
		panic("fakeprovider: " + substr + " is not in the body")
	}
	return i + into
}

// pieces splits b at the step's cuts (whole when it has none).
func (st Step) pieces(b []byte) [][]byte {
	var out [][]byte
	prev := 0
	for _, c := range st.Cuts {
		if c > prev && c < len(b) {
			out, prev = append(out, b[prev:c]), c
		}
	}
	for st.CutEvery > 0 && len(b)-prev > st.CutEvery {
		out, prev = append(out, b[prev:prev+st.CutEvery]), prev+st.CutEvery
	}
	return append(out, b[prev:])
}

// Received is a request as the server saw it. Body is the raw body; Chat is the decoded
// chat-completions body (nil for a GET or a body that is not JSON).
type Received struct {
	Method string
	Path   string
	Query  string
	Header http.Header
	Body   []byte
	Chat   map[string]any
}

// Options tune the default request checks.
type Options struct {
	// WantKey, when non-empty, is the API key every chat request (POST) must carry as
	// "Authorization: Bearer <key>". Empty: requests must carry no Authorization header. A
	// GET (the models catalog) may carry no key or exactly that one.
	WantKey string
	// Models, when non-nil, answers every GET of a path ending in "/models" (status 200)
	// without using a scripted step, so a page may load the catalog at any time. Such
	// requests are still recorded (Requests); ChatRequests leaves them out.
	Models []byte
}

// Server is a running fake provider. URL is its base; ChatURL the chat-completions endpoint
// ("<URL>/api/v1/chat/completions"); ModelsURL the models endpoint.
type Server struct {
	*httptest.Server
	ChatURL string

	t     testing.TB
	opts  Options
	mu    sync.Mutex
	steps []Step
	got   []Received
	pre   int // CORS preflights answered
	done  chan struct{}

	abortOnce sync.Once
	aborted   chan struct{}
}

// New starts a fake provider on loopback that replays steps; it is closed with the test. A
// request beyond the script fails the test and gets a 599.
func New(t testing.TB, opts Options, steps ...Step) *Server {
	s := &Server{t: t, opts: opts, steps: steps, done: make(chan struct{}), aborted: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	s.ChatURL = s.URL + "/api/v1/chat/completions"
	t.Cleanup(func() { close(s.done); s.Close() })
	return s
}

// Requests returns a copy of the requests received so far.
func (s *Server) Requests() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.got...)
}

// ChatRequests returns the POST requests received so far (the chat-completions calls).
func (s *Server) ChatRequests() []Received {
	var out []Received
	for _, r := range s.Requests() {
		if r.Method == http.MethodPost {
			out = append(out, r)
		}
	}
	return out
}

// Aborted is closed once the client gave up on a Hang step's request (it closed the
// connection: a cancelled fetch, a client timeout).
func (s *Server) Aborted() <-chan struct{} { return s.aborted }

// Preflights is how many CORS preflight (OPTIONS) requests were answered. They are not
// recorded in Requests and use no step.
func (s *Server) Preflights() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pre
}

// Remaining is how many scripted steps were not used.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.steps)
}

// CORS: a page on another origin (the browser studio on its own loopback port) calls the
// fake like it calls OpenRouter, which allows CORS. Every response allows the caller's
// origin and exposes Retry-After; a preflight is answered here.
const (
	corsHeaders = "Authorization, Content-Type, HTTP-Referer, X-Title"
	corsMethods = "GET, POST, OPTIONS"
)

func cors(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Expose-Headers", "Retry-After")
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	cors(w, r)
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
		s.mu.Lock()
		s.pre++
		s.mu.Unlock()
		h := w.Header()
		h.Set("Access-Control-Allow-Methods", corsMethods)
		h.Set("Access-Control-Allow-Headers", corsHeaders)
		h.Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	body, _ := io.ReadAll(r.Body)
	rec := Received{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body}
	if r.Method == http.MethodPost {
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			rec.Chat = m
		}
	}
	s.mu.Lock()
	s.got = append(s.got, rec)
	n := len(s.got)
	if s.opts.Models != nil && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		s.mu.Unlock()
		s.check(rec, n)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(s.opts.Models)
		return
	}
	if len(s.steps) == 0 {
		s.mu.Unlock()
		s.t.Errorf("fakeprovider: unexpected request %d: %s %s", n, r.Method, r.URL.Path)
		w.WriteHeader(599)
		return
	}
	st := s.steps[0]
	s.steps = s.steps[1:]
	s.mu.Unlock()

	s.check(rec, n)
	if st.Check != nil {
		st.Check(s.t, rec)
	}
	if st.Hang {
		s.hang(r)
		return
	}
	b := st.Body
	if st.BodyFile != "" {
		b = Body(st.BodyFile)
	}
	for k, v := range st.Header {
		w.Header().Set(k, v)
	}
	if w.Header().Get("Content-Type") == "" {
		switch {
		case strings.HasSuffix(st.BodyFile, ".html"):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		case strings.HasSuffix(st.BodyFile, ".sse"):
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-cache")
		default:
			w.Header().Set("Content-Type", "application/json")
		}
	}
	status := st.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	flusher, _ := w.(http.Flusher)
	for _, p := range st.pieces(b) {
		if st.ChunkDelay > 0 {
			select {
			case <-time.After(st.ChunkDelay):
			case <-r.Context().Done():
				s.abortOnce.Do(func() { close(s.aborted) })
				return
			}
		}
		if _, err := w.Write(p); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
	if st.HangAfter {
		s.hang(r)
	}
}

// hang holds r until the client gives up (Aborted), the server closes, or a minute passed.
func (s *Server) hang(r *http.Request) {
	select {
	case <-r.Context().Done():
		s.abortOnce.Do(func() { close(s.aborted) })
	case <-s.done:
	case <-time.After(time.Minute):
	}
}

var legalName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// check applies the default request checks: the Authorization header as Options says; for a
// chat POST, a JSON body with model, messages, max_tokens 1200 and, with tools,
// tool_choice "auto", provider-legal function names and no "$schema" in any parameters.
func (s *Server) check(r Received, n int) {
	t := s.t
	auth := r.Header.Get("Authorization")
	switch {
	case r.Method == http.MethodGet && auth == "":
		// the models catalog needs no key
	case s.opts.WantKey != "" && auth != "Bearer "+s.opts.WantKey:
		t.Errorf("fakeprovider: request %d: Authorization header missing or wrong", n)
	case s.opts.WantKey == "" && auth != "":
		t.Errorf("fakeprovider: request %d: unexpected Authorization header", n)
	}
	if r.Method != http.MethodPost {
		return
	}
	if r.Chat == nil {
		t.Errorf("fakeprovider: request %d: body is not a JSON object", n)
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("fakeprovider: request %d: Content-Type %q", n, ct)
	}
	if _, ok := r.Chat["model"].(string); !ok {
		t.Errorf("fakeprovider: request %d: no model", n)
	}
	if msgs, ok := r.Chat["messages"].([]any); !ok || len(msgs) == 0 {
		t.Errorf("fakeprovider: request %d: no messages", n)
	}
	if r.Chat["max_tokens"] != float64(1200) {
		t.Errorf("fakeprovider: request %d: max_tokens %v", n, r.Chat["max_tokens"])
	}
	tools, _ := r.Chat["tools"].([]any)
	if len(tools) > 0 && r.Chat["tool_choice"] != "auto" {
		t.Errorf("fakeprovider: request %d: tool_choice %v", n, r.Chat["tool_choice"])
	}
	for _, x := range tools {
		tool, _ := x.(map[string]any)
		fn, _ := tool["function"].(map[string]any)
		name, _ := fn["name"].(string)
		if tool["type"] != "function" || !legalName.MatchString(name) {
			t.Errorf("fakeprovider: request %d: tool %v is not a provider-legal function", n, tool)
			continue
		}
		params, _ := fn["parameters"].(map[string]any)
		if params == nil {
			t.Errorf("fakeprovider: request %d: tool %s has no parameters object", n, name)
		} else if _, has := params["$schema"]; has {
			t.Errorf("fakeprovider: request %d: tool %s sends $schema", n, name)
		}
	}
}
