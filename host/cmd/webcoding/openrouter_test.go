package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webcoding/studio/host/fakeprovider"
	"github.com/webcoding/studio/host/wasmhost"
	"github.com/webcoding/studio/wasm/mcp"
)

// These run `agent --provider openrouter` through the real module in wazero against
// host/fakeprovider on loopback (constructed response bodies, see its testdata/README.md).
// The module reaches the fake only through webcoding.http_do; the host adds the key.

// testKey is a fake API key; it must reach the fake provider in the Authorization header and
// appear nowhere in the CLI's output or the module's log.
const testKey = "sk-or-v1-TESTKEY-0123456789abcdef-never-print-me"

// runOpenRouter runs the CLI with OPENROUTER_API_KEY=key and WEBCODING_ENDPOINT_API_KEY=key
// (none when key is ""), so the fake provider (another origin than openrouter.ai) gets it.
func runOpenRouter(t *testing.T, key string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runAgentEnv(t, map[string]string{apiKeyEnv: key, endpointKeyEnv: key}, append([]string{"--provider", "openrouter"}, args...)...)
}

// runAgentEnv runs `webcoding agent args…` with the environment vars (and the provider module).
func runAgentEnv(t *testing.T, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string {
		if k == "WEBCODING_MODULE" {
			return providerModule(t)
		}
		return vars[k]
	}, newHost: openHost}
	code = run(context.Background(), append([]string{"agent"}, args...), e)
	return code, out.String(), errb.String()
}

// noKey fails the test when the key appears in any of the texts.
func noKey(t *testing.T, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if strings.Contains(s, testKey) || strings.Contains(s, "TESTKEY") {
			t.Fatalf("the API key leaked into the output or log:\n%s", s)
		}
	}
}

// noKeyInRequestBodies checks that nothing the module composed (the request bodies it handed
// to the host) carries the key: only the host's Authorization header does.
func noKeyInRequestBodies(t *testing.T, srv *fakeprovider.Server) {
	t.Helper()
	for i, r := range srv.Requests() {
		if bytes.Contains(r.Body, []byte("TESTKEY")) {
			t.Fatalf("request %d body carries the key", i+1)
		}
		for k, vs := range r.Header {
			if k == "Authorization" {
				continue
			}
			for _, v := range vs {
				if strings.Contains(v, "TESTKEY") {
					t.Fatalf("request %d header %s carries the key", i+1, k)
				}
			}
		}
	}
}

func callNames(t *testing.T, calls []agentCall) []string {
	t.Helper()
	var names []string
	for _, c := range calls {
		var p mcp.CallToolParams
		if err := json.Unmarshal(c.Request, &p); err != nil {
			t.Fatal(err)
		}
		names = append(names, p.Name)
	}
	return names
}

// TestOpenRouterToolLoopSavesToDisk: a two-turn tool loop (getStatus, then setTheme emerald,
// then a text answer) with --approve all --save changes styles.css on disk; the fake asserts
// the Authorization header on every request and the key appears nowhere else.
func TestOpenRouterToolLoopSavesToDisk(t *testing.T) {
	dir := seedCopy(t)
	srv := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{BodyFile: "chat_get_status.json", Check: func(t testing.TB, r fakeprovider.Received) {
			if r.Chat["model"] != "test/model:free" {
				t.Errorf("model %v", r.Chat["model"])
			}
			if p, _ := r.Chat["provider"].(map[string]any); p["zdr"] != true {
				t.Errorf("provider routing %v, want zdr", r.Chat["provider"])
			}
		}},
		fakeprovider.Step{BodyFile: "chat_set_theme_emerald.json"},
		fakeprovider.Step{BodyFile: "chat_final_text.json"},
	)
	code, out, stderr := runOpenRouter(t, testKey, "--endpoint", srv.ChatURL, "--model", "test/model:free",
		"--data-policy", "zdr", "--dir", dir, "--approve", "all", "--save", "Make it emerald")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	noKey(t, out, stderr)
	noKeyInRequestBodies(t, srv)
	calls, sum := agentOutput(t, out)
	if got := strings.Join(callNames(t, calls), ","); got != "workspace.getStatus,preview.setTheme,workspace.saveAll" {
		t.Fatalf("calls %s", got)
	}
	for _, c := range calls {
		if r := result(t, c.Result); r.IsError {
			t.Fatalf("call failed: %s → %s", c.Request, c.Result)
		}
	}
	if sum.Failed || !sum.Saved || sum.Unsaved != nil || !strings.Contains(sum.Summary, "emerald") {
		t.Fatalf("summary %+v", sum)
	}
	css := tree(t, dir)["styles.css"]
	if !strings.Contains(css, emeraldAccent) || !strings.Contains(css, emeraldSoft) {
		t.Fatalf("styles.css on disk:\n%s", css)
	}
	if n := len(srv.Requests()); n != 3 || srv.Remaining() != 0 {
		t.Fatalf("%d requests, %d steps left", n, srv.Remaining())
	}
}

// TestOpenRouterRetriesThen503Success: 503 twice, then success; the two retry notices go to
// stderr and the run succeeds on the third attempt.
func TestOpenRouterRetries503ThenSuccess(t *testing.T) {
	srv := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{Status: 503, BodyFile: "error_503.json"},
		fakeprovider.Step{Status: 503, BodyFile: "error_503.json"},
		fakeprovider.Step{BodyFile: "chat_final_text.json"},
	)
	code, out, stderr := runOpenRouter(t, testKey, "--endpoint", srv.ChatURL, "Say hello")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	noKey(t, out, stderr)
	calls, sum := agentOutput(t, out)
	if len(calls) != 0 || sum.Failed || sum.Summary == "" {
		t.Fatalf("calls %d, summary %+v", len(calls), sum)
	}
	for _, n := range []string{"retrying provider request 1/2", "retrying provider request 2/2"} {
		if !strings.Contains(stderr, n) {
			t.Errorf("stderr lacks %q:\n%s", n, stderr)
		}
	}
	if !strings.Contains(stderr, string(mcp.CodeOpenRouterProviderError)) {
		t.Errorf("stderr does not name the transient failure:\n%s", stderr)
	}
	if len(srv.Requests()) != 3 {
		t.Fatalf("%d requests, want 3", len(srv.Requests()))
	}
}

// TestOpenRouter401NoRetry: 401 fails the run with OPENROUTER_AUTHENTICATION_FAILED after one
// request; exit 0 (a provider failure is a result), a hint on stderr.
func TestOpenRouter401NoRetry(t *testing.T) {
	srv := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{Status: 401, BodyFile: "error_401.json"})
	code, out, stderr := runOpenRouter(t, testKey, "--endpoint", srv.ChatURL, "Make it emerald")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	noKey(t, out, stderr)
	_, sum := agentOutput(t, out)
	if !sum.Failed || sum.ErrorCode != string(mcp.CodeOpenRouterAuthenticationFailed) {
		t.Fatalf("summary %+v", sum)
	}
	if strings.Contains(stderr, "retrying") || !strings.Contains(stderr, apiKeyEnv) {
		t.Fatalf("stderr:\n%s", stderr)
	}
	if len(srv.Requests()) != 1 {
		t.Fatalf("%d requests, want 1", len(srv.Requests()))
	}
}

// TestOpenRouterOffline: nothing listens at the endpoint → OPENROUTER_NETWORK_ERROR after 2
// retries (3 attempts), with the offline hint on stderr.
func TestOpenRouterOffline(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	endpoint := dead.URL + "/api/v1/chat/completions"
	dead.Close()
	code, out, stderr := runOpenRouter(t, testKey, "--endpoint", endpoint, "Make it emerald")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	noKey(t, out, stderr)
	_, sum := agentOutput(t, out)
	if !sum.Failed || sum.ErrorCode != string(mcp.CodeOpenRouterNetworkError) {
		t.Fatalf("summary %+v", sum)
	}
	if !strings.Contains(stderr, "retrying provider request 2/2") || !strings.Contains(stderr, "could not be reached") {
		t.Fatalf("stderr:\n%s", stderr)
	}
}

func TestOpenRouterFlagErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		key  string
		args []string
		want string
	}{
		"no key":       {"", []string{"p"}, apiKeyEnv},
		"blank key":    {"  ", []string{"p"}, "export " + apiKeyEnv},
		"bad endpoint": {testKey, []string{"--endpoint", "ftp://x/y", "p"}, "--endpoint"},
		"relative":     {testKey, []string{"--endpoint", "/api/v1/chat", "p"}, "--endpoint"},
		"bad policy":   {testKey, []string{"--data-policy", "maybe", "p"}, "--data-policy"},
	} {
		t.Run(name, func(t *testing.T) {
			code, out, stderr := runOpenRouter(t, tc.key, tc.args...)
			if code != exitUsage || out != "" || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
			}
			noKey(t, stderr)
		})
	}
}

// TestHostRefusesOtherOrigins: the host allows only the configured origin; a run whose
// endpoint points elsewhere never reaches it (the module gets a refusal, reported as a
// network error), and the allowed server sees nothing either.
func TestHostRefusesOtherOrigins(t *testing.T) {
	allowed := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey})
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(500)
	}))
	defer other.Close()
	var logb bytes.Buffer
	ctx := context.Background()
	h, err := wasmhost.New(ctx, wasmhost.Options{ModulePath: providerModule(t), AbandonOnDeadline: true, Log: &logb,
		CallTimeout: OpenRouterRunTimeout,
		HTTP:        &wasmhost.HTTPOptions{APIKey: testKey, AllowedOrigins: []string{allowed.URL}}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	c := &rpcClient{h: h}
	params, _ := json.Marshal(map[string]string{"prompt": "hi", "endpoint": other.URL + "/api/v1/chat/completions"})
	raw, rerr, err := c.call(ctx, "agent/openrouter", params)
	if err != nil || rerr != nil {
		t.Fatalf("agent/openrouter: %v %v", err, rerr)
	}
	var rep struct {
		Failed    bool   `json:"failed"`
		ErrorCode string `json:"errorCode"`
		Summary   string `json:"summary"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Failed || rep.ErrorCode != string(mcp.CodeOpenRouterNetworkError) || !strings.Contains(rep.Summary, "refused") {
		t.Fatalf("report %s", raw)
	}
	if hits.Load() != 0 || len(allowed.Requests()) != 0 {
		t.Fatalf("requests reached a server: other %d, allowed %d", hits.Load(), len(allowed.Requests()))
	}
	noKey(t, string(raw), logb.String())
	if !strings.Contains(logb.String(), "refused") {
		t.Fatalf("host log does not record the refusal:\n%s", logb.String())
	}
}

// providerHost starts the module with HTTP to srvURL only.
func providerHost(t *testing.T, srvURL string, timeout time.Duration, log *bytes.Buffer) *wasmhost.Host {
	t.Helper()
	if log == nil {
		log = &bytes.Buffer{}
	}
	ctx := context.Background()
	h, err := wasmhost.New(ctx, wasmhost.Options{ModulePath: providerModule(t), AbandonOnDeadline: true, Log: log,
		CallTimeout: OpenRouterRunTimeout,
		HTTP:        &wasmhost.HTTPOptions{APIKey: testKey, AllowedOrigins: []string{srvURL}, Timeout: timeout}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(ctx) })
	return h
}

type orReport struct {
	Failed    bool     `json:"failed"`
	ErrorCode string   `json:"errorCode"`
	Summary   string   `json:"summary"`
	Turns     int      `json:"turns"`
	Notices   []string `json:"notices"`
}

func runProvider(t *testing.T, h *wasmhost.Host, params map[string]string) (orReport, string) {
	t.Helper()
	b, _ := json.Marshal(params)
	raw, rerr, err := (&rpcClient{h: h}).call(context.Background(), "agent/openrouter", b)
	if err != nil || rerr != nil {
		t.Fatalf("agent/openrouter: %v %v", err, rerr)
	}
	var rep orReport
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	return rep, string(raw)
}

// TestHostDeadlineIsOpenRouterTimeout: a provider that never answers hits the host's
// per-request deadline (the guest's timers cannot fire during the host call); the module sees
// context.DeadlineExceeded and reports OPENROUTER_TIMEOUT after 3 attempts.
func TestHostDeadlineIsOpenRouterTimeout(t *testing.T) {
	srv := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{Hang: true}, fakeprovider.Step{Hang: true}, fakeprovider.Step{Hang: true})
	var logb bytes.Buffer
	h := providerHost(t, srv.URL, 200*time.Millisecond, &logb)
	rep, raw := runProvider(t, h, map[string]string{"prompt": "hi", "endpoint": srv.ChatURL})
	if !rep.Failed || rep.ErrorCode != string(mcp.CodeOpenRouterTimeout) || len(rep.Notices) != 2 {
		t.Fatalf("report %s", raw)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
	noKey(t, raw, logb.String())
}

// TestLargeResponseThroughResultTake: a provider answer far larger than the guest's 64 KiB
// result buffer arrives whole (parked by the host, fetched with result_take).
func TestLargeResponseThroughResultTake(t *testing.T) {
	text := "BEGIN " + strings.Repeat("emerald ", 40<<10) + "END"
	body, _ := json.Marshal(map[string]any{"id": "gen-big", "object": "chat.completion", "choices": []any{map[string]any{
		"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": text}}}})
	srv := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, fakeprovider.Step{Body: body})
	h := providerHost(t, srv.URL, 0, nil)
	rep, raw := runProvider(t, h, map[string]string{"prompt": "hi", "endpoint": srv.ChatURL})
	if rep.Failed || rep.Turns != 1 || !strings.HasPrefix(rep.Summary, "BEGIN emerald") {
		t.Fatalf("report %.300s", raw)
	}
}

// TestModuleSendsNoCredentials: with no key in the host, the provider receives no
// Authorization header at all (the fake fails on one), so every credential on the wire is the
// host's; the module composes none.
func TestModuleSendsNoCredentials(t *testing.T) {
	srv := fakeprovider.New(t, fakeprovider.Options{}, fakeprovider.Step{BodyFile: "chat_final_text.json"})
	ctx := context.Background()
	h, err := wasmhost.New(ctx, wasmhost.Options{ModulePath: providerModule(t), AbandonOnDeadline: true,
		HTTP: &wasmhost.HTTPOptions{AllowedOrigins: []string{srv.URL}}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	rep, raw := runProvider(t, h, map[string]string{"prompt": "hi", "endpoint": srv.ChatURL})
	if rep.Failed || len(srv.Requests()) != 1 {
		t.Fatalf("report %s", raw)
	}
}

// TestNoHTTPWithoutProvider: a host without HTTPOptions does not offer agent/openrouter.
func TestNoHTTPWithoutProvider(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h, err := wasmhost.New(ctx, wasmhost.Options{ModulePath: providerModule(t), AbandonOnDeadline: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	_, rerr, err := (&rpcClient{h: h}).call(ctx, "agent/openrouter", []byte(`{"prompt":"hi"}`))
	if err != nil || rerr == nil || rerr.Code != -32601 {
		t.Fatalf("agent/openrouter without HTTP: err %v, rpc error %v; want -32601", err, rerr)
	}
}

// ownModule is the core module built from this checkout into a directory only these tests
// use: the shared module cache (moduleCacheDir) may be rebuilt concurrently from another
// source tree by other test processes on the machine, which would make the provider methods
// come and go under these tests.
var ownModule = sync.OnceValues(func() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	return wasmhost.BuildModule(ctx, filepath.Join(os.TempDir(), "webcoding-openrouter-test-module"))
})

func providerModule(t *testing.T) string {
	t.Helper()
	p, err := ownModule()
	if err != nil {
		t.Fatalf("building the module: %v", err)
	}
	return p
}
