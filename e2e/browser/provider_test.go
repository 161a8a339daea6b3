package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/host/fakeprovider"
)

// Browser tests of the OpenRouter provider (issue 6): the settings dialog, the provider loop
// through the page's fetch transport against host/fakeprovider on another loopback port (a
// real CORS origin), retries, approvals, cancellation, the model catalog, key storage and a
// network audit. Each test uses a browser context of its own whose site data is cleared when
// the test ends (chromium.NewRecycledTab), so the key in its localStorage never reaches another
// test's tabs.

// testKey is the API key the tests type; the fake checks every chat request carries it.
const testKey = "sk-or-v1-e2e-secret-0123456789abcdef"

const testModel = "meta-llama/llama-3.3-70b-instruct:free"

// netAudit records every request the tab's page (and its frames) sent, through CDP Network
// events, from before the first navigation.
type netAudit struct {
	mu   sync.Mutex
	reqs map[network.RequestID]*auditedRequest
	ids  []network.RequestID
}

type auditedRequest struct {
	URL, Method, Frame string
	Headers            []string // "name: value" from requestWillBeSent and the raw extra info
	Body               string
}

func (n *netAudit) get(id network.RequestID) *auditedRequest {
	r, ok := n.reqs[id]
	if !ok {
		r = &auditedRequest{}
		n.reqs[id] = r
		n.ids = append(n.ids, id)
	}
	return r
}

func headerLines(h network.Headers) []string {
	var out []string
	for k, v := range h {
		out = append(out, fmt.Sprintf("%s: %v", k, v))
	}
	return out
}

func (n *netAudit) listen(ev any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		r := n.get(e.RequestID)
		r.URL, r.Method, r.Frame = e.Request.URL, e.Request.Method, string(e.FrameID)
		r.Headers = append(r.Headers, headerLines(e.Request.Headers)...)
		for _, p := range e.Request.PostDataEntries {
			r.Body += string(p.Bytes)
		}
	case *network.EventRequestWillBeSentExtraInfo:
		r := n.get(e.RequestID)
		r.Headers = append(r.Headers, headerLines(e.Headers)...)
	}
}

func (n *netAudit) requests() []auditedRequest {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []auditedRequest
	for _, id := range n.ids {
		out = append(out, *n.reqs[id])
	}
	return out
}

// openProviderStudio opens the studio in a fresh browser context; with audit, every network
// request is recorded from before the navigation.
func openProviderStudio(t *testing.T, audit *netAudit, pre ...chromedp.Action[chromedp.Void]) *chromium.Tab {
	t.Helper()
	u := site(t)
	var tab *chromium.Tab
	if audit != nil {
		tab = chromium.NewIsolatedTab(t) // the audit's listener stays with the tab
	} else {
		tab = chromium.NewRecycledTab(t)
	}
	steps := pre
	if audit != nil {
		audit.reqs = map[network.RequestID]*auditedRequest{}
		if err := chromedp.Listen(tab.Ctx, audit.listen); err != nil {
			t.Fatal(err)
		}
		steps = append(steps, chromedp.Action[chromedp.Void](func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			_, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{})
			return chromedp.Void{}, err
		}))
	}
	steps = append(steps, chromedp.Navigate(u))
	if err := tab.Do(loadTimeout, steps...); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#preview-status", "acknowledged")
	waitText(t, tab, "#provider-label", "local agent")
	return tab
}

// configureProvider fills and saves the settings dialog.
func configureProvider(t *testing.T, tab *chromium.Tab, endpoint, model string) {
	t.Helper()
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#provider-settings-open"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.querySelector("#settings-dialog").open`); err != nil {
		t.Fatalf("the settings dialog did not open: %v", err)
	}
	if err := tab.Do(10*time.Second,
		chromedp.SetValue(chromedp.CSS("#settings-key"), testKey),
		chromedp.SetValue(chromedp.CSS("#settings-endpoint"), endpoint),
		chromedp.SetValue(chromedp.CSS("#settings-model"), model),
		chromedp.Click(chromedp.CSS("#settings-save")),
	); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#provider-label", "OpenRouter · "+model)
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `!document.querySelector("#settings-dialog").open`); err != nil {
		t.Fatalf("the settings dialog did not close: %v", err)
	}
}

func chatBody(content string, calls ...string) []byte {
	msg := map[string]any{"role": "assistant", "content": content}
	finish := "stop"
	if len(calls) > 0 {
		var tc []any
		for i := 0; i+2 < len(calls); i += 3 {
			tc = append(tc, map[string]any{"id": calls[i], "type": "function", "function": map[string]any{"name": calls[i+1], "arguments": calls[i+2]}})
		}
		msg["tool_calls"], msg["content"], finish = tc, nil, "tool_calls"
	}
	b, _ := json.Marshal(map[string]any{"id": "gen-e2e", "object": "chat.completion", "model": testModel,
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "message": msg}}})
	return b
}

func transcriptText(t *testing.T, tab *chromium.Tab) string {
	t.Helper()
	s, err := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#transcript").textContent`)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestProviderRetryNotices: 503 (Retry-After 1) twice, then an answer. The retry notices are
// in the chat while the run waits, the answer follows, three chat requests reached the fake.
func TestProviderRetryNotices(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{Status: 503, BodyFile: "error_503.json", Header: map[string]string{"Retry-After": "1"}},
		fakeprovider.Step{Status: 503, BodyFile: "proxy_502.html"},
		fakeprovider.Step{Body: chatBody("Answered after two retries.")})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Say hello")
	// Visible while the run waits: the notice is there and the answer is not yet.
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `(() => { const s = document.querySelector("#transcript").textContent;
		return s.includes("Retrying in 1.0 s (attempt 2 of 3) after HTTP 503…") && !s.includes("Answered after two retries."); })()`); err != nil {
		t.Fatalf("no retry notice while waiting: %v; transcript %q", err, transcriptText(t, tab))
	}
	waitContains(t, tab, "#transcript", "(attempt 3 of 3) after HTTP 503…")
	waitContains(t, tab, "#transcript", "Answered after two retries.")
	waitText(t, tab, "#status-text", "Ready")
	if n := len(fake.ChatRequests()); n != 3 {
		t.Errorf("the fake saw %d chat requests, want 3", n)
	}
	if fake.Preflights() == 0 {
		t.Error("no CORS preflight: the request was not a cross-origin fetch")
	}
	if r := fake.ChatRequests(); len(r) > 0 {
		if got := r[0].Header.Get("HTTP-Referer"); got != strings.TrimSuffix(originOfURL(site(t)), "/") {
			t.Errorf("HTTP-Referer %q, want the page origin %q", got, originOfURL(site(t)))
		}
		if r[0].Chat["model"] != testModel {
			t.Errorf("model %v", r[0].Chat["model"])
		}
	}
	noConsoleErrors(t, tab)
}

func originOfURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// TestProvider401OffersSettings: a 401 is not retried (one request), the failed entry offers
// "Open provider settings" (which opens the dialog) and "Use local agent & retry".
func TestProvider401OffersSettings(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, fakeprovider.Step{Status: 401, BodyFile: "error_401.json"})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Say hello")
	waitContains(t, tab, "#transcript", "[OPENROUTER_AUTHENTICATION_FAILED]")
	waitText(t, tab, "#status-text", "Ready")
	labels, err := chromium.Eval[[]string](tab, 5*time.Second, `[...document.querySelectorAll("#transcript .entry-error .entry-actions button")].map(b => b.textContent)`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(labels, "|") != "Open provider settings|Use local agent & retry" {
		t.Fatalf("recovery actions %q", labels)
	}
	time.Sleep(1500 * time.Millisecond) // a retry would have happened by now (350 ms backoff)
	if n := len(fake.ChatRequests()); n != 1 {
		t.Fatalf("the fake saw %d chat requests, want exactly 1", n)
	}
	if s := transcriptText(t, tab); strings.Contains(s, "Retrying") {
		t.Errorf("a 401 was retried: %q", s)
	}
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`#transcript .entry-actions button[data-action="provider-settings"]`))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.querySelector("#settings-dialog").open && document.activeElement.id === "settings-key"`); err != nil {
		t.Fatalf("Open provider settings did not open the dialog: %v", err)
	}
	// Escape closes the dialog (and nothing else happens).
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `!document.querySelector("#settings-dialog").open`); err != nil {
		t.Fatalf("Escape did not close the dialog: %v", err)
	}
	noConsoleErrors(t, tab)
}

// TestProviderUseLocalAgentRetry: after a 403, "Use local agent & retry" runs the prompt once
// through the local agent — no second provider request — and keeps the key.
func TestProviderUseLocalAgentRetry(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{Status: 403, Body: []byte(`{"error":{"code":403,"message":"This model is not available in your region"}}`)})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Show workspace status")
	waitContains(t, tab, "#transcript", "[OPENROUTER_ACCESS_DENIED]")
	waitText(t, tab, "#status-text", "Ready")
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`#transcript .entry-actions button[data-action="provider-local-retry"]`))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "✓ workspace.getStatus")
	waitText(t, tab, "#status-text", "Ready")
	if n := len(fake.ChatRequests()); n != 1 {
		t.Errorf("the fake saw %d chat requests, want 1 (the local retry must not call the provider)", n)
	}
	waitText(t, tab, "#provider-label", "OpenRouter · "+testModel)
	if k := storedKey(t, tab, originOfURL(fake.URL)); k != testKey {
		t.Errorf("the key was not kept")
	}
	noConsoleErrors(t, tab)
}

// TestProviderUnreachableOffersLocalAgent: an endpoint nobody listens on (what offline looks
// like to fetch) fails after the two retries with OPENROUTER_NETWORK_ERROR, and the entry
// offers "Use local agent & retry" (no settings action: the settings are not the problem).
func TestProviderUnreachableOffersLocalAgent(t *testing.T) {
	t.Parallel()
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, "http://127.0.0.1:1/api/v1/chat/completions", testModel)
	sendPrompt(t, tab, "Show workspace status")
	waitContains(t, tab, "#transcript", "(attempt 3 of 3) after a network error…")
	waitContains(t, tab, "#transcript", "[OPENROUTER_NETWORK_ERROR] Network request failed: fetch http://127.0.0.1:1/api/v1/chat/completions: Failed to fetch")
	labels, err := chromium.Eval[[]string](tab, 5*time.Second, `[...document.querySelectorAll("#transcript .entry-error .entry-actions button")].map(b => b.textContent)`)
	if err != nil {
		t.Fatal(err)
	}
	if len(labels) == 0 || labels[len(labels)-1] != "Use local agent & retry" || strings.Contains(strings.Join(labels, "|"), "Open provider settings") {
		t.Fatalf("recovery actions %q", labels)
	}
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`#transcript .entry-actions button[data-action="provider-local-retry"]`))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "✓ workspace.getStatus")
}

// TestProviderTwoTurnToolLoopWithApprovals: the model asks for preview_setTheme, then
// preview_updateHero; each waits for its approval card; both change the preview; the tool
// results go back to the model; the answer closes the run. The page's requests are audited.
func TestProviderTwoTurnToolLoopWithApprovals(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{Body: chatBody("", "call_theme_1", "preview_setTheme", `{"theme":"emerald"}`)},
		fakeprovider.Step{Body: chatBody("", "call_hero_2", "preview_updateHero", `{"title":"Shipped by a model"}`)},
		fakeprovider.Step{Body: chatBody("Emerald theme and a new hero title.")})
	audit := &netAudit{}
	tab := openProviderStudio(t, audit)
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(window.__events = [], webcodingSubscribe(e => window.__events.push(e)), true)`); err != nil {
		t.Fatal(err)
	}
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Make it emerald and retitle the hero")
	approve(t, tab, "preview.setTheme")
	if got, err := chromium.WaitInFrame(tab, 10*time.Second, `getComputedStyle(document.documentElement).getPropertyValue("--accent").trim()`, "#10b981"); err != nil {
		t.Fatalf("accent in the preview = %q: %v", got, err)
	}
	approve(t, tab, "preview.updateHero")
	if got, err := chromium.WaitInFrame(tab, 10*time.Second, `document.querySelector("#hero-title").textContent.trim()`, "Shipped by a model"); err != nil {
		t.Fatalf("hero title in the preview = %q: %v", got, err)
	}
	waitContains(t, tab, "#transcript", "Emerald theme and a new hero title.")
	waitText(t, tab, "#status-text", "Ready")
	tr := transcriptText(t, tab)
	for _, want := range []string{"✓ preview.setTheme", "✓ preview.updateHero"} {
		if !strings.Contains(tr, want) {
			t.Errorf("transcript lacks %q: %q", want, tr)
		}
	}
	reqs := fake.ChatRequests()
	if len(reqs) != 3 {
		t.Fatalf("the fake saw %d chat requests, want 3", len(reqs))
	}
	// The third request carries both tool results under the provider's call ids.
	msgs, _ := reqs[2].Chat["messages"].([]any)
	ids := map[string]bool{}
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "tool" {
			ids[fmt.Sprint(mm["tool_call_id"])] = true
		}
	}
	if !ids["call_theme_1"] || !ids["call_hero_2"] {
		t.Errorf("tool results sent back: %v", ids)
	}
	auditKey(t, tab, audit, fake)
	noConsoleErrors(t, tab)
}

// auditKey checks that every request went to the served origin or the configured endpoint,
// that the key travelled only to the endpoint, and that it is in no DOM markup, no preview
// document, no webcodingSubscribe event and no console line.
func auditKey(t *testing.T, tab *chromium.Tab, audit *netAudit, fake *fakeprovider.Server) {
	t.Helper()
	served, endpoint := originOfURL(site(t)), originOfURL(fake.ChatURL)
	reqs := audit.requests()
	if len(reqs) < 5 {
		t.Fatalf("only %d requests audited", len(reqs))
	}
	sawEndpoint := false
	for _, r := range reqs {
		if r.URL == "" {
			continue // extra info of a request whose start was not seen
		}
		u, err := url.Parse(r.URL)
		if err != nil {
			t.Errorf("unparsable request URL %q", r.URL)
			continue
		}
		switch u.Scheme {
		case "data", "blob", "about":
			continue
		}
		o := originOfURL(r.URL)
		hasKey := strings.Contains(strings.Join(r.Headers, "\n"), testKey) || strings.Contains(r.Body, testKey) || strings.Contains(r.URL, testKey)
		switch {
		case o == endpoint:
			sawEndpoint = true
		case o == served:
			if hasKey {
				t.Errorf("the key was sent to the served origin: %s %s", r.Method, r.URL)
			}
		default:
			t.Errorf("request to a third origin: %s %s", r.Method, r.URL)
		}
		if hasKey && (o != endpoint || !strings.HasSuffix(u.Path, "/chat/completions")) {
			t.Errorf("the key went to %s", r.URL)
		}
	}
	if !sawEndpoint {
		t.Error("the audit saw no request to the endpoint")
	}
	// The resource timing list covers what CDP may miss (the service worker's cache fills).
	urls, _ := chromium.Eval[[]string](tab, 5*time.Second, `performance.getEntriesByType("resource").map(e => e.name)`)
	for _, s := range urls {
		if o := originOfURL(s); o != served && o != endpoint && !strings.HasPrefix(s, "data:") && !strings.HasPrefix(s, "blob:") {
			t.Errorf("resource from a third origin: %s", s)
		}
	}
	leaks, err := chromium.Eval[[]string](tab, 5*time.Second, `(() => {
		const key = `+jsString(testKey)+`, out = [];
		if (document.documentElement.outerHTML.includes(key)) out.push("page markup");
		if (document.querySelector("#transcript").textContent.includes(key)) out.push("transcript");
		for (const f of document.querySelectorAll("iframe")) {
			if ((f.getAttribute("srcdoc") || "").includes(key)) out.push("preview srcdoc");
			try { if (f.contentDocument && f.contentDocument.documentElement.outerHTML.includes(key)) out.push("preview document"); } catch (e) {}
		}
		if (JSON.stringify(window.__events || []).includes(key)) out.push("webcodingSubscribe events");
		return out; })()`)
	if err != nil {
		t.Fatal(err)
	}
	if len(leaks) > 0 {
		t.Errorf("the key appears in: %v", leaks)
	}
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `(window.__events || []).length`); n == 0 {
		t.Error("no webcodingSubscribe events were recorded: the audit saw nothing")
	}
	for _, c := range tab.Console() {
		if strings.Contains(c.Text, testKey) {
			t.Errorf("the key is in console output: %q", c.Text)
		}
	}
}

// TestProviderCancelDuringBackoff: Escape during the retry backoff (Retry-After 4 s) cancels
// the run: it is shown cancelled (not failed) and no further request is made.
func TestProviderCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{Status: 503, BodyFile: "error_503.json", Header: map[string]string{"Retry-After": "4"}},
		fakeprovider.Step{Body: chatBody("must not be requested")})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Say hello")
	waitContains(t, tab, "#transcript", "Retrying in 4.0 s (attempt 2 of 3) after HTTP 503…")
	if err := tab.Do(5*time.Second, chromedp.Focus(chromedp.CSS("#prompt")), chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Execution cancelled.")
	waitText(t, tab, "#status-text", "Execution cancelled.")
	time.Sleep(5 * time.Second) // past the backoff: a request would have been made by now
	if n := len(fake.ChatRequests()); n != 1 {
		t.Errorf("the fake saw %d chat requests, want 1", n)
	}
	tr := transcriptText(t, tab)
	if strings.Contains(tr, "OPENROUTER_") || strings.Contains(tr, "must not be requested") {
		t.Errorf("a cancelled run shows a failure or an answer: %q", tr)
	}
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll("#transcript .entry-error").length`); n != 0 {
		t.Errorf("%d error entries after a cancel", n)
	}
	noConsoleErrors(t, tab)
}

// TestProviderEscapeAtApproval: Escape while a model call waits for its approval denies it,
// cancels the run (shown cancelled) and makes no further provider request; nothing changed.
func TestProviderEscapeAtApproval(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{Body: chatBody("", "call_theme_1", "preview_setTheme", `{"theme":"emerald"}`)},
		fakeprovider.Step{Body: chatBody("must not be requested")})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Make it emerald")
	waitApproval(t, tab, "preview.setTheme")
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Execution cancelled.")
	waitText(t, tab, "#status-text", "Execution cancelled.")
	time.Sleep(time.Second)
	if n := len(fake.ChatRequests()); n != 1 {
		t.Errorf("the fake saw %d chat requests, want 1", n)
	}
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll("#approvals .approval-card").length`); n != 0 {
		t.Errorf("%d approval cards left", n)
	}
	if got, err := chromium.EvalInFrame[string](tab, 5*time.Second, `getComputedStyle(document.documentElement).getPropertyValue("--accent").trim()`); err != nil || got == "" || got == "#10b981" {
		t.Errorf("preview accent %q (%v): the denied setTheme ran or the preview is gone", got, err)
	}
	noConsoleErrors(t, tab)
}

// TestProviderCancelAbortsFetch: Cancel while the provider has not answered aborts the fetch
// itself: the fake sees the connection close, and the run is shown cancelled.
func TestProviderCancelAbortsFetch(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, fakeprovider.Step{Hang: true})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Say hello")
	deadline := time.Now().Add(10 * time.Second)
	for len(fake.ChatRequests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#cancel-run"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Execution cancelled.")
	select {
	case <-fake.Aborted():
	case <-time.After(10 * time.Second):
		t.Error("the fake did not see the request aborted")
	}
	noConsoleErrors(t, tab)
}

// TestProviderModelCatalog: the catalog comes from the endpoint's models URL, shows only
// tool-capable models, filters to free ones, and the zdr policy asks for the zdr variant.
func TestProviderModelCatalog(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{Models: fakeprovider.Body("models.json")})
	tab := openProviderStudio(t, nil)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#provider-settings-open")),
		chromedp.SetValue(chromedp.CSS("#settings-endpoint"), fake.ChatURL),
		chromedp.Click(chromedp.CSS("#settings-load-models"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#settings-catalog-status", "3 tool-capable models (2 free) · showing 3")
	options := func() []string {
		v, err := chromium.Eval[[]string](tab, 5*time.Second, `[...document.querySelectorAll("#settings-model-picker option")].map(o => o.value)`)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if got := strings.Join(options(), ","); got != "openai/gpt-4o-mini,meta-llama/llama-3.3-70b-instruct:free,qwen/qwen3-coder" {
		t.Errorf("picker %s", got)
	}
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#settings-free-only"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#settings-catalog-status", "showing 2")
	if got := strings.Join(options(), ","); got != "meta-llama/llama-3.3-70b-instruct:free,qwen/qwen3-coder" {
		t.Errorf("free only: %s", got)
	}
	// Picking a model fills the model field.
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => { const p = document.querySelector("#settings-model-picker");
		p.value = "qwen/qwen3-coder"; p.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.querySelector("#settings-model").value === "qwen/qwen3-coder"`); err != nil {
		t.Errorf("picking a model did not fill the model field: %v", err)
	}
	// The zdr policy reloads the zdr variant of the catalog.
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => { const p = document.querySelector("#settings-policy");
		p.value = "zdr"; p.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	var queries []string
	for time.Now().Before(deadline) {
		queries = nil
		for _, r := range fake.Requests() {
			queries = append(queries, r.Query)
		}
		if len(queries) == 2 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(queries) != 2 || strings.Contains(queries[0], "zdr") || !strings.Contains(queries[1], "zdr=true") ||
		!strings.Contains(queries[0], "supported_parameters=tools") {
		t.Errorf("catalog queries %q", queries)
	}
	for _, r := range fake.Requests() {
		if r.Header.Get("Authorization") != "" {
			t.Error("the catalog request carried a key")
		}
	}
	noConsoleErrors(t, tab)
}

// TestProviderKeyStorage: the key is saved for the endpoint's origin in
// context-action.openrouter.keys (the legacy single entry stays empty); another
// tab of the same origin changing or clearing it updates this tab through the storage event.
func TestProviderKeyStorage(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	got, err := chromium.Eval[[]string](tab, 5*time.Second, `["keys","endpoint","model","api-key"].map(k => localStorage.getItem("context-action.openrouter." + k) || "")`)
	if err != nil {
		t.Fatal(err)
	}
	wantKeys, _ := json.Marshal(map[string]string{strings.TrimSuffix(originOfURL(fake.URL), "/"): testKey})
	if len(got) != 4 || got[0] != string(wantKeys) || got[1] != fake.ChatURL || got[2] != testModel || got[3] != "" {
		t.Fatalf("localStorage: %q", got)
	}
	// A second tab in the same browser context (same origin, same storage).
	other, cancel := chromedp.NewContext(tab.Ctx)
	defer cancel()
	octx, ocancel := context.WithTimeout(other, loadTimeout)
	defer ocancel()
	if err := chromedp.Do(octx, chromedp.Navigate(originOfURL(site(t))+"/provider-test-other-tab")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(octx, chromedp.Evaluate[bool](`(localStorage.setItem("context-action.openrouter.model", "qwen/qwen3-coder"), true)`)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#provider-label", "OpenRouter · qwen/qwen3-coder")
	// Without a key and with the default (remote) endpoint the local agent answers; the
	// fake's loopback endpoint alone would need no key (a local server; design §5.16).
	if _, err := chromedp.Run(octx, chromedp.Evaluate[bool](`(localStorage.removeItem("context-action.openrouter.keys"), localStorage.removeItem("context-action.openrouter.endpoint"), true)`)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#provider-label", "local agent")
	// Without a key prompts run through the local agent; the fake sees nothing.
	sendPrompt(t, tab, "Show workspace status")
	waitContains(t, tab, "#transcript", "✓ workspace.getStatus")
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("the fake saw %d requests without a key", n)
	}
	// Clear key in the dialog removes it from storage.
	configureProvider(t, tab, fake.ChatURL, testModel)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#provider-settings-open")), chromedp.Click(chromedp.CSS("#settings-clear-key"))); err != nil {
		t.Fatal(err)
	}
	// The fake is on loopback: with its key cleared it counts as a local server (no key).
	waitContains(t, tab, "#settings-key-status", "A server on this computer needs no key")
	if k, _ := chromium.Eval[bool](tab, 5*time.Second, `localStorage.getItem("context-action.openrouter.api-key") === null && localStorage.getItem("context-action.openrouter.keys") === null`); !k {
		t.Error("Clear key left the key in localStorage")
	}
	noConsoleErrors(t, tab)
}

// TestProviderBlockedStorageIsSessionOnly: when localStorage throws (blocked storage), the
// settings live in this tab's memory: the dialog says so, a prompt still reaches the provider
// with the key, and a reload forgets them.
func TestProviderBlockedStorageIsSessionOnly(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, fakeprovider.Step{Body: chatBody("From memory settings.")})
	block := onNewDocument(`Object.defineProperty(window, "localStorage", { configurable: true, get() { throw new DOMException("The operation is insecure.", "SecurityError"); } });`)
	tab := openProviderStudio(t, nil, block)
	configureProvider(t, tab, fake.ChatURL, testModel)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#provider-settings-open"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#settings-key-status", "Browser storage is blocked: settings last for this tab only.")
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#settings-close"))); err != nil {
		t.Fatal(err)
	}
	sendPrompt(t, tab, "Say hello")
	waitContains(t, tab, "#transcript", "From memory settings.")
	if n := len(fake.ChatRequests()); n != 1 {
		t.Fatalf("the fake saw %d chat requests, want 1", n)
	}
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitText(t, tab, "#provider-label", "local agent")
	noConsoleErrors(t, tab)
}

// TestProviderFollowUpAndNewChat: a follow-up prompt continues the conversation; "New chat"
// empties the transcript and the next request starts with the system message and the prompt.
func TestProviderFollowUpAndNewChat(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{Body: chatBody("First answer.")}, fakeprovider.Step{Body: chatBody("Second answer.")},
		fakeprovider.Step{Body: chatBody("Fresh answer.")})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "First question")
	waitContains(t, tab, "#transcript", "First answer.")
	waitText(t, tab, "#status-text", "Ready")
	sendPrompt(t, tab, "Second question")
	waitContains(t, tab, "#transcript", "Second answer.")
	waitText(t, tab, "#status-text", "Ready")
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#new-chat"))); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#transcript", "New chat: the next prompt starts a fresh conversation.")
	sendPrompt(t, tab, "Third question")
	waitContains(t, tab, "#transcript", "Fresh answer.")
	roles := func(r fakeprovider.Received) string {
		var out []string
		msgs, _ := r.Chat["messages"].([]any)
		for _, m := range msgs {
			mm, _ := m.(map[string]any)
			out = append(out, fmt.Sprint(mm["role"]))
		}
		return strings.Join(out, ",")
	}
	reqs := fake.ChatRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	for i, want := range []string{"system,user", "system,user,assistant,user", "system,user"} {
		if got := roles(reqs[i]); got != want {
			t.Errorf("request %d roles %s, want %s", i+1, got, want)
		}
	}
	noConsoleErrors(t, tab)
}

// corsTestServer is the other-origin server of TestFetchAdapterInChromium: /echo, /status,
// /hang (records start and abort by id), /seen, /big, /redirect, with CORS for any origin.
func corsTestServer(t *testing.T) *httptest.Server {
	var mu sync.Mutex
	started, aborted := map[string]bool{}, map[string]bool{}
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h := map[string]string{}
		for _, k := range []string{"Authorization", "Content-Type", "Http-Referer", "X-Title", "Cookie"} {
			h[k] = r.Header.Get(k)
		}
		out, _ := json.Marshal(map[string]any{"Method": r.Method, "Header": h, "Body": b})
		w.Header().Set("X-Echo", "yes")
		w.WriteHeader(201)
		_, _ = w.Write(out)
	})
	mux.HandleFunc("/status", func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(r.URL.Query().Get("code"))
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(code)
		_, _ = io.WriteString(w, `{"error":{"code":503,"message":"overloaded"}}`)
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		// Read the body first: net/http notices a closed connection (r.Context) only once
		// the body is consumed.
		_, _ = io.ReadAll(r.Body)
		id := r.URL.Query().Get("id")
		mu.Lock()
		started[id] = true
		mu.Unlock()
		select {
		case <-r.Context().Done():
			mu.Lock()
			aborted[id] = true
			mu.Unlock()
		case <-time.After(30 * time.Second):
		}
	})
	// /drip writes one event, then holds the response open until /release (or the client
	// gives up: aborted), then writes a second event (the fetch adapter's DoStream tests).
	release := map[string]chan struct{}{}
	relFor := func(id string) chan struct{} {
		mu.Lock()
		defer mu.Unlock()
		if release[id] == nil {
			release[id] = make(chan struct{})
		}
		return release[id]
	}
	mux.HandleFunc("/drip", func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("id")
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: first\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-relFor(id):
			_, _ = io.WriteString(w, "data: second\n\n")
		case <-r.Context().Done():
			mu.Lock()
			aborted[id] = true
			mu.Unlock()
		case <-time.After(30 * time.Second):
		}
	})
	mux.HandleFunc("/release", func(w http.ResponseWriter, r *http.Request) {
		close(relFor(r.URL.Query().Get("id")))
	})
	mux.HandleFunc("/seen", func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("id")
		mu.Lock()
		out, _ := json.Marshal(map[string]bool{"Started": started[id], "Aborted": aborted[id]})
		mu.Unlock()
		_, _ = w.Write(out)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		_, _ = io.WriteString(w, strings.Repeat("x", n))
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/echo", http.StatusFound)
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" {
			w.Header().Set("Access-Control-Allow-Origin", o)
			w.Header().Set("Access-Control-Expose-Headers", "Retry-After, X-Echo")
		}
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST")
			w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type, HTTP-Referer, X-Title")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestFetchAdapterInChromium runs wasm/adapters/fetch's Go tests (GOOS=js) in a page whose
// origin differs from the test server's, so every request is a real CORS fetch: headers and
// body round trip, error statuses as responses, AbortController on cancel and deadline,
// refused origins sending nothing, network errors, redirects refused, the body bound.
func TestFetchAdapterInChromium(t *testing.T) {
	t.Parallel()
	srv := corsTestServer(t)
	bin := chromium.BuildTestWasm(t, repoRoot(), "./wasm/adapters/fetch")
	out, code := chromium.RunGoWasm(t, bin, 90*time.Second, "-test.v", "-fetch.base="+srv.URL)
	if code != 0 || !strings.Contains(out, "\nPASS") || strings.Contains(out, "--- FAIL") {
		t.Fatalf("fetch adapter tests exited with %d:\n%s", code, out)
	}
	for _, name := range []string{"TestPostRoundTrip", "TestErrorStatusIsAResponse", "TestCancelAbortsTheRequest", "TestDeadline",
		"TestRefusedOriginSendsNothing", "TestNetworkErrorIsAnError", "TestRedirectRefused", "TestBodyBound",
		"TestStreamBeforeTheEnd", "TestStreamCancelAborts"} {
		if !strings.Contains(out, "--- PASS: "+name) {
			t.Errorf("%s did not pass:\n%s", name, out)
		}
	}
}
