package browser

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/host/fakeprovider"
)

// Browser tests of streamed replies, usage, budgets and OpenAI-compatible presets (issue 16;
// docs/design.md §5.16), against host/fakeprovider replaying recorded SSE streams byte for
// byte on another loopback origin.

func sseStep(name string) fakeprovider.Step { return fakeprovider.Step{BodyFile: name} }

// storedKey is the key the page saved for origin in its per-origin store.
func storedKey(t *testing.T, tab *chromium.Tab, origin string) string {
	t.Helper()
	raw, err := chromium.Eval[string](tab, 5*time.Second, `localStorage.getItem("context-action.openrouter.keys") || "{}"`)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	_ = json.Unmarshal([]byte(raw), &m)
	return m[strings.TrimSuffix(origin, "/")]
}

// TestProviderStreamTextBeforeEnd: the reply's first words are on screen while the fake
// still holds the rest of the stream (cut inside a UTF-8 sequence too); the text grows by
// appends to one element, not transcript morphs; the usage (tokens, cached, cost) follows.
func TestProviderStreamTextBeforeEnd(t *testing.T) {
	t.Parallel()
	body := fakeprovider.Body("stream_final_text.sse")
	step := fakeprovider.Step{BodyFile: "stream_final_text.sse", ChunkDelay: 1500 * time.Millisecond,
		Cuts: []int{fakeprovider.Offset(body, `"content":"emerald`, 0), fakeprovider.Offset(body, "에", 1), fakeprovider.Offset(body, `"content":"in styles`, 0)},
		Check: func(t testing.TB, r fakeprovider.Received) {
			if r.Chat["stream"] != true {
				t.Errorf("the page did not ask for a stream: %v", r.Chat["stream"])
			}
		}}
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, step)
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Make it emerald")
	start := time.Now()
	if _, err := chromium.WaitFor[bool](tab, 20*time.Second, `(() => { const s = document.querySelector("#transcript").textContent;
		return s.includes("I switched the preview theme to") && !s.includes("#10b981") && document.querySelector("#status-text").textContent.startsWith("Running"); })()`); err != nil {
		t.Fatalf("the first text was not on screen before the stream ended: %v; transcript %q", err, transcriptText(t, tab))
	}
	first := time.Since(start)
	waitContains(t, tab, "#transcript", "I switched the preview theme to emerald (에메랄드 💚): the accent tokens in styles.css now use #10b981.")
	done := time.Since(start)
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#transcript", "Usage — this run: 3,325 tokens (3,301 prompt, 2,048 cached · 24 completion) · $0.0005095")
	waitContains(t, tab, "#provider-usage", "Session: 3,325 tokens")
	t.Logf("first text after %v, whole reply after %v", first, done)
	// One entry holds the reply (no duplicate answer entry), and it grew by appends.
	n, _ := chromium.Eval[int](tab, 5*time.Second, `[...document.querySelectorAll("#transcript .entry-text")].filter(e => e.textContent.includes("#10b981")).length`)
	if n != 1 {
		t.Errorf("%d entries hold the reply, want 1", n)
	}
	stats, _ := chromium.Eval[map[string]int](tab, 5*time.Second, `window.webcodingTranscriptStats`)
	if stats["appends"] < 2 {
		t.Errorf("transcript updates %v: want the streamed text appended in place (≥ 2 appends)", stats)
	}
	t.Logf("transcript updates: %v", stats)
	noConsoleErrors(t, tab)
}

// TestProviderStreamBreakage: each broken stream gives its typed outcome in the chat — an
// error event after HTTP 200 (OPENROUTER_PROVIDER_ERROR, the partial reply marked), a cut
// stream (OPENROUTER_NETWORK_ERROR), length with truncated arguments (the call never runs;
// the run ends saying the answer was cut by the length limit).
func TestProviderStreamBreakage(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		sseStep("stream_error_event.sse"), sseStep("stream_error_event.sse"), sseStep("stream_error_event.sse"),
		sseStep("stream_cut.sse"), sseStep("stream_cut.sse"), sseStep("stream_cut.sse"),
		sseStep("stream_length_truncated.sse"))
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Switch the theme")
	waitContains(t, tab, "#transcript", "[OPENROUTER_PROVIDER_ERROR]")
	waitContains(t, tab, "#transcript", "Provider disconnected unexpectedly")
	waitContains(t, tab, "#transcript .entry-partial", "I will switch the theme")
	waitContains(t, tab, "#transcript .entry-partial", "Incomplete: this reply did not finish (OPENROUTER_PROVIDER_ERROR)")
	waitText(t, tab, "#status-text", "Ready")

	sendPrompt(t, tab, "Reset the workspace")
	waitContains(t, tab, "#transcript", "[OPENROUTER_NETWORK_ERROR]")
	waitText(t, tab, "#status-text", "Ready")
	if s := transcriptText(t, tab); strings.Contains(s, "workspace.reset") {
		t.Errorf("a call from a cut stream ran: %q", s)
	}

	sendPrompt(t, tab, "Say hello")
	waitContains(t, tab, "#transcript", "[OPENROUTER_INVALID_TOOL_CALL] The answer was cut off by the length limit (max_tokens 1200)")
	waitText(t, tab, "#status-text", "Ready")
	if n := len(fake.ChatRequests()); n != 7 {
		t.Errorf("the fake saw %d chat requests, want 7 (the cut answer is not re-asked)", n)
	}
	noConsoleErrors(t, tab)
}

// TestProviderStreamCancel: Cancel while the stream is open aborts the fetch at once (the
// fake sees the connection close) and the partial reply says it was cancelled.
func TestProviderStreamCancel(t *testing.T) {
	t.Parallel()
	full := fakeprovider.Body("stream_final_text.sse")
	head := full[:fakeprovider.Offset(full, `"content":"emerald`, 0)]
	head = head[:strings.LastIndex(string(head), "data:")] // whole events only: the first words
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{Body: head, Header: map[string]string{"Content-Type": "text/event-stream"}, HangAfter: true})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Make it emerald")
	waitContains(t, tab, "#transcript", "I switched the preview theme to")
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#cancel-run"))); err != nil {
		t.Fatal(err)
	}
	select {
	case <-fake.Aborted():
	case <-time.After(10 * time.Second):
		t.Error("the fake did not see the stream aborted")
	}
	waitContains(t, tab, "#transcript", "Execution cancelled.")
	waitContains(t, tab, "#transcript .entry-partial", "Cancelled: the reply stopped here")
	waitText(t, tab, "#status-text", "Execution cancelled.")
	noConsoleErrors(t, tab)
}

// TestProviderBudgetStop: a token budget set in the settings stops the run before its
// second request (OPENROUTER_BUDGET_EXCEEDED in the chat); the first answer's calls ran
// (the theme change after its approval).
func TestProviderBudgetStop(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, sseStep("stream_parallel_calls.sse"))
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#provider-settings-open")),
		chromedp.SetValue(chromedp.CSS("#settings-budget-tokens"), "1000"), chromedp.Click(chromedp.CSS("#settings-save"))); err != nil {
		t.Fatal(err)
	}
	if got, _ := chromium.Eval[string](tab, 5*time.Second, `localStorage.getItem("context-action.openrouter.budget-tokens") || ""`); got != "1000" {
		t.Fatalf("stored budget %q", got)
	}
	sendPrompt(t, tab, "Make it emerald")
	// The answer's second call (preview.setTheme) waits for approval like any model write.
	if _, err := chromium.WaitFor[bool](tab, 20*time.Second, `!!document.querySelector("#approve-0")`); err != nil {
		t.Fatalf("no approval card: %v; transcript %q", err, transcriptText(t, tab))
	}
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#approve-0"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "[OPENROUTER_BUDGET_EXCEEDED]")
	waitContains(t, tab, "#transcript", "3161 of 1000 tokens")
	waitText(t, tab, "#status-text", "Ready")
	if n := len(fake.ChatRequests()); n != 1 {
		t.Errorf("the fake saw %d chat requests, want 1 (the budget stops the second)", n)
	}
	noConsoleErrors(t, tab)
}

// TestProviderLocalPresetNoKey: the Ollama preset against a loopback fake with no key: the
// header names the preset, the key line describes it, a base URL (…/v1) is completed with a
// note, the catalog lists the server's bare ids as "tools unknown", the chat request carries
// no Authorization and no OpenRouter attribution headers, the CORS preflight is answered, and
// a model that rejects tools gives a typed configuration error.
func TestProviderLocalPresetNoKey(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{Models: []byte(`{"object":"list","data":[{"id":"llama3.2:latest","object":"model","owned_by":"library"}]}`)},
		fakeprovider.Step{BodyFile: "stream_final_text.sse", Check: func(t testing.TB, r fakeprovider.Received) {
			for _, h := range []string{"Authorization", "Http-Referer", "X-Title"} {
				if v := r.Header.Get(h); v != "" {
					t.Errorf("local request carried %s", h)
				}
			}
		}},
		// Ollama's answer for a model without tool calling.
		fakeprovider.Step{Status: 400, Body: []byte(`{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools","type":"api_error","param":null,"code":null}}`)})
	tab := openProviderStudio(t, nil)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#provider-settings-open"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => { const s = document.querySelector("#settings-preset");
		s.value = "ollama"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `document.querySelector("#settings-endpoint").value === "http://127.0.0.1:11434/v1/chat/completions"`); err != nil {
		t.Fatalf("the preset did not fill its endpoint: %v", err)
	}
	waitContains(t, tab, "#settings-preset-help", "OLLAMA_ORIGINS")
	// The key line describes the selected preset, not the saved OpenRouter settings.
	waitContains(t, tab, "#settings-key-status", "A server on this computer needs no key; prompts run through Ollama")
	// A base URL (…/v1, what the servers display) is completed to the chat-completions URL.
	base := strings.TrimSuffix(fake.ChatURL, "/chat/completions")
	if err := tab.Do(10*time.Second,
		chromedp.SetValue(chromedp.CSS("#settings-endpoint"), base),
		chromedp.Click(chromedp.CSS("#settings-load-models"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#settings-model-picker", "llama3.2:latest")
	waitContains(t, tab, "#settings-catalog-status", "1 model, tools unknown (0 free) · showing 1")
	if err := tab.Do(10*time.Second, chromedp.SetValue(chromedp.CSS("#settings-model"), "llama3.2:latest"),
		chromedp.Click(chromedp.CSS("#settings-save"))); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#provider-label", "Ollama · llama3.2:latest")
	waitContains(t, tab, "#transcript", "it was completed to the chat-completions URL "+fake.ChatURL)
	sendPrompt(t, tab, "Make it emerald")
	waitContains(t, tab, "#transcript", "now use #10b981.")
	waitText(t, tab, "#status-text", "Ready")
	if n := len(fake.ChatRequests()); n != 1 {
		t.Fatalf("the fake saw %d chat requests, want 1", n)
	}
	// A model that rejects tools: a clear typed error, no retry, the settings offered.
	sendPrompt(t, tab, "Make it emerald")
	waitContains(t, tab, "#transcript", "[OPENROUTER_CONFIGURATION_ERROR] The model does not support tool calls (HTTP 400)")
	waitContains(t, tab, "#transcript", `"reason": "tools_unsupported"`)
	waitContains(t, tab, "#transcript .entry-actions", "Open provider settings")
	if n := len(fake.ChatRequests()); n != 2 {
		t.Errorf("the fake saw %d chat requests, want 2 (no retry of the refusal)", n)
	}
	if fake.Preflights() == 0 {
		t.Error("no CORS preflight answered")
	}
	if k := storedKey(t, tab, originOfURL(fake.URL)); k != "" {
		t.Errorf("a key was stored for the local server: %q", k)
	}
	noConsoleErrors(t, tab)
}

// TestProviderLegacyKeyMigrated: a key in the old single entry moves once into the per-origin
// store under the origin of the endpoint it was saved with, and the old entry is removed; a
// run sends it there (as a plain request: "Stream replies" is off).
func TestProviderLegacyKeyMigrated(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, fakeprovider.Step{Body: chatBody("Migrated key works."),
		Check: func(t testing.TB, r fakeprovider.Received) {
			// "Stream replies" is off (stored "off"): a plain request.
			if _, has := r.Chat["stream"]; has || r.Header.Get("Accept") == "text/event-stream" {
				t.Errorf("streaming was off but the request asked for a stream")
			}
		}})
	tab := openProviderStudio(t, nil)
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(localStorage.setItem("context-action.openrouter.api-key", `+jsString(testKey)+`),
		localStorage.setItem("context-action.openrouter.endpoint", `+jsString(fake.ChatURL)+`),
		localStorage.setItem("context-action.openrouter.model", `+jsString(testModel)+`),
		localStorage.setItem("context-action.openrouter.stream", "off"), true)`); err != nil {
		t.Fatal(err)
	}
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitText(t, tab, "#provider-label", "OpenRouter · "+testModel)
	if k := storedKey(t, tab, originOfURL(fake.URL)); k != testKey {
		t.Errorf("migrated key %q", k)
	}
	if old, _ := chromium.Eval[bool](tab, 5*time.Second, `localStorage.getItem("context-action.openrouter.api-key") === null`); !old {
		t.Error("the legacy entry was not removed")
	}
	sendPrompt(t, tab, "Say hello")
	waitContains(t, tab, "#transcript", "Migrated key works.")
	noConsoleErrors(t, tab)
}

// TestProviderKeyStaysWithItsOrigin: with a key saved for endpoint A, switching the endpoint
// to a local server B (the key field still showing A's key) saves no key for B: the streamed
// run against B carries no Authorization, and over every request the page made the key went
// only to A's chat-completions URL.
func TestProviderKeyStaysWithItsOrigin(t *testing.T) {
	t.Parallel()
	a := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, sseStep("stream_final_text.sse"))
	b := fakeprovider.New(t, fakeprovider.Options{}, sseStep("stream_final_text.sse"))
	audit := &netAudit{}
	tab := openProviderStudio(t, audit)
	configureProvider(t, tab, a.ChatURL, testModel)
	sendPrompt(t, tab, "Make it emerald")
	waitContains(t, tab, "#transcript", "now use #10b981.")
	waitText(t, tab, "#status-text", "Ready")
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#provider-settings-open"))); err != nil {
		t.Fatal(err)
	}
	if v, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#settings-key").value`); v != testKey {
		t.Fatalf("the dialog did not show A's key")
	}
	// The endpoint is typed without a change event: the key field keeps A's key.
	if err := tab.Do(10*time.Second, chromedp.SetValue(chromedp.CSS("#settings-endpoint"), b.ChatURL),
		chromedp.Click(chromedp.CSS("#settings-save"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 5*time.Second, `!document.querySelector("#settings-dialog").open`); err != nil {
		t.Fatalf("the settings dialog did not close: %v", err)
	}
	if k := storedKey(t, tab, originOfURL(b.URL)); k != "" {
		t.Fatalf("A's key was saved for B")
	}
	if k := storedKey(t, tab, originOfURL(a.URL)); k != testKey {
		t.Fatalf("A's key was lost")
	}
	sendPrompt(t, tab, "Make it emerald again")
	waitText(t, tab, "#status-text", "Ready")
	if n := len(b.ChatRequests()); n != 1 {
		t.Fatalf("B saw %d chat requests, want 1; transcript %q", n, transcriptText(t, tab))
	}
	served, ao, bo := originOfURL(site(t)), originOfURL(a.URL), originOfURL(b.URL)
	keyed := 0
	for _, r := range audit.requests() {
		if r.URL == "" || strings.HasPrefix(r.URL, "data:") || strings.HasPrefix(r.URL, "blob:") || strings.HasPrefix(r.URL, "about:") {
			continue
		}
		o := originOfURL(r.URL)
		if o != served && o != ao && o != bo {
			t.Errorf("request to a third origin: %s %s", r.Method, r.URL)
		}
		if strings.Contains(strings.Join(r.Headers, "\n"), testKey) || strings.Contains(r.Body, testKey) || strings.Contains(r.URL, testKey) {
			keyed++
			if o != ao || !strings.HasSuffix(r.URL, "/chat/completions") {
				t.Errorf("the key went to %s %s", r.Method, r.URL)
			}
		}
	}
	if keyed == 0 {
		t.Error("the audit saw the key in no request: it saw nothing")
	}
	noConsoleErrors(t, tab)
}

// TestProviderStreamTrailingNewline: a streamed reply ending in "\n" (as local servers end
// them) is one agent entry, not the streamed entry plus the trimmed final answer; the same
// after a reload.
func TestProviderStreamTrailingNewline(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, sseStep("stream_trailing_newline.sse"))
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Change the heading")
	waitContains(t, tab, "#transcript", "The heading now says Hello, world.")
	waitText(t, tab, "#status-text", "Ready")
	count := `[...document.querySelectorAll("#transcript .entry-text")].filter(e => e.textContent.includes("Hello, world.")).length`
	if n, _ := chromium.Eval[int](tab, 5*time.Second, count); n != 1 {
		t.Fatalf("%d entries hold the reply, want 1: %q", n, transcriptText(t, tab))
	}
	waitStoredEntry(t, tab, "The heading now says Hello, world.")
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#transcript", "The heading now says Hello, world.")
	if n, _ := chromium.Eval[int](tab, 5*time.Second, count); n != 1 {
		t.Fatalf("after the reload %d entries hold the reply, want 1: %q", n, transcriptText(t, tab))
	}
	noConsoleErrors(t, tab)
}

// TestProviderRequestTimeoutSetting: the dialog's "Request timeout (seconds)" refuses a value
// outside 5..600 with the bounds, stores a valid one, and a run uses it: against a server that
// never answers, each attempt gives up after 5 s (not the 20 s default), and the typed timeout
// says so (issue 16 item 2b).
func TestProviderRequestTimeoutSetting(t *testing.T) {
	t.Parallel()
	hang := fakeprovider.Step{Hang: true}
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, hang, hang, hang)
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#provider-settings-open")),
		chromedp.SetValue(chromedp.CSS("#settings-request-timeout"), "3"), chromedp.Click(chromedp.CSS("#settings-save"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#settings-form-error", "between 5 and 600 seconds")
	if err := tab.Do(10*time.Second, chromedp.SetValue(chromedp.CSS("#settings-request-timeout"), "5"),
		chromedp.Click(chromedp.CSS("#settings-save"))); err != nil {
		t.Fatal(err)
	}
	if got, _ := chromium.Eval[string](tab, 5*time.Second, `localStorage.getItem("context-action.openrouter.request-timeout") || ""`); got != "5" {
		t.Fatalf("stored request timeout %q", got)
	}
	sendPrompt(t, tab, "Make it emerald")
	waitContains(t, tab, "#transcript", "[OPENROUTER_TIMEOUT]")
	waitContains(t, tab, "#transcript", "5000 ms")
	if n := len(fake.ChatRequests()); n != 3 {
		t.Errorf("the fake saw %d chat requests, want 3 (two retries)", n)
	}
	noConsoleErrors(t, tab)
}
