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

// chatsDumpJS returns every value of the page's "web-coding-chats" database, parsed.
const chatsDumpJS = `new Promise((resolve, reject) => {
  const r = indexedDB.open("web-coding-chats");
  r.onerror = () => reject(r.error);
  r.onsuccess = () => {
    const db = r.result;
    if (!db.objectStoreNames.contains("conversations")) { db.close(); resolve([]); return; }
    const q = db.transaction("conversations").objectStore("conversations").getAll();
    q.onerror = () => reject(q.error);
    q.onsuccess = () => { resolve(q.result.map(v => v.data)); db.close(); };
  };
})`

// idbScanJS returns the names of the IndexedDB databases (and stores) whose stored values
// contain the string key, after reading every value of every store of every database.
const idbScanJS = `(async (key) => {
  const hits = [];
  let scanned = 0;
  for (const info of await indexedDB.databases()) {
    const db = await new Promise((res, rej) => { const r = indexedDB.open(info.name); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
    for (const store of db.objectStoreNames) {
      const vals = await new Promise((res, rej) => { const q = db.transaction(store).objectStore(store).getAll(); q.onsuccess = () => res(q.result); q.onerror = () => rej(q.error); });
      for (const v of vals) {
        scanned++;
        const text = JSON.stringify(v, (k, x) => x instanceof Uint8Array ? new TextDecoder().decode(x) : x);
        if (text.includes(key)) hits.push(info.name + "/" + store);
      }
    }
    db.close();
  }
  return {hits, scanned};
})`

type chatRecord struct {
	ID      string `json:"id"`
	Entries []struct {
		Kind, Text, State string
	} `json:"entries"`
	History []map[string]any `json:"history"`
	Trace   []map[string]any `json:"trace"`
}

func storedChats(t *testing.T, tab *chromium.Tab) []chatRecord {
	t.Helper()
	raws, err := chromium.Eval[[]string](tab, loadTimeout, chatsDumpJS)
	if err != nil {
		t.Fatal(err)
	}
	var out []chatRecord
	for _, raw := range raws {
		var r chatRecord
		if err := json.Unmarshal([]byte(raw), &r); err != nil {
			t.Fatalf("stored chat is not JSON: %v", err)
		}
		out = append(out, r)
	}
	return out
}

// waitStoredEntry waits until a kept conversation holds an entry containing text.
func waitStoredEntry(t *testing.T, tab *chromium.Tab, text string) chatRecord {
	t.Helper()
	deadline := time.Now().Add(loadTimeout)
	for {
		for _, r := range storedChats(t, tab) {
			for _, e := range r.Entries {
				if strings.Contains(e.Text, text) {
					return r
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no kept conversation holds %q: %+v", text, storedChats(t, tab))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func noKeyInIndexedDB(t *testing.T, tab *chromium.Tab) {
	t.Helper()
	res, err := chromium.Eval[struct {
		Hits    []string `json:"hits"`
		Scanned int      `json:"scanned"`
	}](tab, loadTimeout, idbScanJS+`(`+jsString(testKey)+`)`)
	if err != nil {
		t.Fatal(err)
	}
	if res.Scanned == 0 {
		t.Fatal("the IndexedDB scan read no value: it proves nothing")
	}
	if len(res.Hits) > 0 {
		t.Errorf("the API key is stored in IndexedDB: %v", res.Hits)
	}
}

// TestChatSurvivesReload (issue 16): a provider run (a reasoning model's tool call, approved,
// then the answer) and a failed run are kept; after a reload the conversation is back with
// its typed states (the failure with its settings action, the reasoning collapsed), and a
// follow-up request carries the earlier messages, reasoning_details included (asserted at
// the fake provider). New chat starts a new conversation: its request holds only the new
// prompt, and a reload shows it, not the old one. The key is in no IndexedDB value.
func TestChatSurvivesReload(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{BodyFile: "chat_reasoning_tool_call.json", Check: func(t testing.TB, r fakeprovider.Received) {
			if rs, _ := r.Chat["reasoning"].(map[string]any); rs["effort"] != "high" {
				t.Errorf("the reasoning setting did not reach the request: %v", r.Chat["reasoning"])
			}
		}},
		fakeprovider.Step{BodyFile: "chat_final_text.json"},
		fakeprovider.Step{Status: 401, BodyFile: "error_401.json"},
		fakeprovider.Step{Body: chatBody("Follow-up answered.")},
		fakeprovider.Step{Body: chatBody("Fresh start answered.")})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	// The reasoning setting (settings dialog, kept as soon as it changes).
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `(() => { const s = document.querySelector("#settings-reasoning-effort"); if (!s) return false;
		s.value = "high"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`); err != nil {
		t.Fatalf("no reasoning setting in the settings dialog: %v", err)
	}
	waitText(t, tab, "#settings-reasoning-status", "Reasoning setting saved.")

	sendPrompt(t, tab, "Make it emerald")
	approve(t, tab, "preview.setTheme")
	waitContains(t, tab, "#transcript", "I switched the preview theme to emerald")
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#transcript details.entry-reasoning", "I should call preview_setTheme")
	sendPrompt(t, tab, "Now the hero, please")
	waitContains(t, tab, "#transcript", "[OPENROUTER_AUTHENTICATION_FAILED]")
	waitText(t, tab, "#status-text", "Ready")
	rec := waitStoredEntry(t, tab, "[OPENROUTER_AUTHENTICATION_FAILED]")
	states := map[string]bool{}
	for _, e := range rec.Entries {
		states[e.State] = true
	}
	if !states["done"] || !states["failed"] {
		t.Errorf("kept entries lack the typed outcomes: %+v", rec.Entries)
	}
	if len(rec.History) < 5 || len(rec.Trace) == 0 {
		t.Errorf("kept history %d messages, trace %d rows", len(rec.History), len(rec.Trace))
	}
	noKeyInIndexedDB(t, tab)

	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitText(t, tab, "#provider-label", "OpenRouter · "+testModel)
	for _, want := range []string{"Make it emerald", "✓ preview.setTheme", "I switched the preview theme to emerald",
		"Now the hero, please", "[OPENROUTER_AUTHENTICATION_FAILED]"} {
		waitContains(t, tab, "#transcript", want)
	}
	waitContains(t, tab, "#transcript details.entry-reasoning", "I should call preview_setTheme")
	if open, _ := chromium.Eval[bool](tab, 5*time.Second, `document.querySelector("#transcript details.entry-reasoning").open`); open {
		t.Error("the restored reasoning is expanded; it should be collapsed")
	}
	if ok, _ := chromium.Eval[bool](tab, 5*time.Second, `[...document.querySelectorAll("#transcript button")].some(b => b.textContent === "Open provider settings")`); !ok {
		t.Error("the restored authentication failure lost its settings action")
	}

	sendPrompt(t, tab, "And the hero?")
	waitContains(t, tab, "#transcript", "Follow-up answered.")
	waitText(t, tab, "#status-text", "Ready")
	reqs := fake.ChatRequests()
	if len(reqs) != 4 {
		t.Fatalf("the fake saw %d chat requests, want 4", len(reqs))
	}
	msgs, _ := reqs[3].Chat["messages"].([]any)
	var users []string
	sawTool, sawDetails := false, false
	prevRole := ""
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "user" && prevRole == "user" { // the failed run's prompt stays unanswered (docs/design.md §5.20)
			t.Errorf("two user messages in a row in the follow-up: %v", msgs)
		}
		prevRole, _ = mm["role"].(string)
		switch mm["role"] {
		case "user":
			users = append(users, mm["content"].(string))
		case "tool":
			sawTool = sawTool || mm["tool_call_id"] == "toolu_reason01"
		case "assistant":
			b, _ := json.Marshal(mm["reasoning_details"])
			sawDetails = sawDetails || strings.Contains(string(b), "EqQBCkgIBxABGAIiQL1Xz2sig")
		}
	}
	if strings.Join(users, "|") != "Make it emerald|Now the hero, please|And the hero?" || !sawTool || !sawDetails {
		t.Errorf("the follow-up after the reload did not send the kept history: users %q, tool result %v, reasoning_details %v", users, sawTool, sawDetails)
	}

	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#new-chat"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "New chat")
	if tr := transcriptText(t, tab); strings.Contains(tr, "Make it emerald") {
		t.Errorf("New chat kept the old transcript: %q", tr)
	}
	// The new, still empty conversation is the last one: a reload shows it, not the old one.
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, chatsDumpJS+`.then(v => v.length === 2)`); err != nil {
		t.Fatalf("New chat kept no new conversation: %v", err)
	}
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitText(t, tab, "#provider-label", "OpenRouter · "+testModel)
	time.Sleep(500 * time.Millisecond) // the restore runs at start
	if tr := transcriptText(t, tab); strings.Contains(tr, "Make it emerald") {
		t.Errorf("a reload after New chat restored the old conversation: %q", tr)
	}
	sendPrompt(t, tab, "Fresh start")
	waitContains(t, tab, "#transcript", "Fresh start answered.")
	waitText(t, tab, "#status-text", "Ready")
	if msgs, _ := fake.ChatRequests()[4].Chat["messages"].([]any); len(msgs) != 2 {
		t.Errorf("the new chat's request carries %d messages, want system + prompt", len(msgs))
	}
	waitStoredEntry(t, tab, "Fresh start answered.")
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#transcript", "Fresh start answered.")
	if tr := transcriptText(t, tab); strings.Contains(tr, "Make it emerald") {
		t.Errorf("the reload after New chat restored the old conversation: %q", tr)
	}
	if n := len(storedChats(t, tab)); n != 2 {
		t.Errorf("%d conversations kept, want 2 (the old one stays)", n)
	}
	noKeyInIndexedDB(t, tab)
	noConsoleErrors(t, tab)
}

// TestChatMemoryModeSaysNotKept: with IndexedDB blocked the chat says that it is not kept.
func TestChatMemoryModeSaysNotKept(t *testing.T) {
	t.Parallel()
	tab := chromium.NewRecycledTab(t)
	block := onNewDocument(`Object.defineProperty(window, "indexedDB", {get() { throw new DOMException("Storage is blocked by policy", "SecurityError"); }, configurable: true});`)
	if err := tab.Do(loadTimeout, block, chromedp.Navigate(site(t))); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#storage-mode", "Memory only")
	waitContains(t, tab, "#transcript", "Memory only: this chat is not kept.")
}

// TestChatSecondTabReadOnly: only the tab holding the workspace lock writes chats. A
// read-only second tab shows the kept conversation but writes nothing; when the writer
// closes, it takes over and its own prompt is kept in the same conversation.
func TestChatSecondTabReadOnly(t *testing.T) {
	t.Parallel()
	profile := chromium.NewRecycledTab(t)
	a := openStudioIn(t, profile)
	waitContains(t, a, "#storage-mode", "Saved in this browser")
	sendPrompt(t, a, "Make the layout feel more premium")
	waitContains(t, a, "#transcript", "Not understood")
	waitRunDone(t, a)
	waitStoredEntry(t, a, "Not understood")
	before, err := chromium.Eval[[]string](a, loadTimeout, chatsDumpJS)
	if err != nil || len(before) != 1 {
		t.Fatalf("kept chats %d: %v", len(before), err)
	}

	b := chromium.NewTabIn(t, profile)
	if err := b.Do(loadTimeout, chromedp.Navigate(site(t))); err != nil {
		t.Fatal(err)
	}
	waitText(t, b, "#status-text", "Ready")
	waitContains(t, b, "#studio-notice", "Read-only")
	waitContains(t, b, "#transcript", "Make the layout feel more premium")
	waitContains(t, b, "#transcript", "Not understood")
	time.Sleep(time.Second) // past the save delay: a writer would have written by now
	after, err := chromium.Eval[[]string](b, loadTimeout, chatsDumpJS)
	if err != nil || len(after) != 1 || after[0] != before[0] {
		t.Fatalf("the read-only tab changed the kept chat (%v):\nbefore %s\nafter  %v", err, before[0], after)
	}

	if err := chromedp.Cancel(a.Ctx); err != nil {
		t.Fatal(err)
	}
	waitContains(t, b, "#transcript", "this tab now saves the workspace")
	waitContains(t, b, "#transcript", "Not understood")
	sendPrompt(t, b, "Make the layout feel more premium")
	waitRunDone(t, b)
	if _, err := chromium.WaitFor[bool](b, loadTimeout, chatsDumpJS+`.then(v => v.length === 1 && (JSON.parse(v[0]).entries.filter(e => e.kind === "unclear").length === 2))`); err != nil {
		t.Fatalf("the tab that took over did not keep its prompt in the same conversation: %v %v", err, storedChats(t, b))
	}
}

// TestChatInterruptedRunRetry: a reload while a run waits for its approval leaves the run
// interrupted; after the reload the chat says so and offers Retry, which runs the prompt
// again (its approval card comes back).
func TestChatInterruptedRunRetry(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	sendPrompt(t, tab, "Change the heading text to Hello World")
	waitApproval(t, tab, "workspace.applyPatch")
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, chatsDumpJS+`.then(v => v.some(s => JSON.parse(s).running === "Change the heading text to Hello World"))`); err != nil {
		t.Fatalf("the running prompt was not kept: %v %+v", err, storedChats(t, tab))
	}
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#transcript", "was interrupted when the page closed or reloaded")
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`#transcript button[data-action="recovery-retry-prompt"]`))); err != nil {
		t.Fatal(err)
	}
	approve(t, tab, "workspace.applyPatch")
	waitRunDone(t, tab)
	waitFileContains(t, tab, "index.html", ">Hello World</h1>")
	noConsoleErrors(t, tab)
}

// TestChatStreamedAnswerSurvivesReload: a streamed reply (which grows one entry in place, no
// closing entry added) is kept whole with its done state, and comes back after a reload.
func TestChatStreamedAnswerSurvivesReload(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, fakeprovider.Step{BodyFile: "stream_final_text.sse"})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Make it emerald")
	const reply = "I switched the preview theme to emerald (에메랄드 💚): the accent tokens in styles.css now use #10b981."
	waitContains(t, tab, "#transcript", reply)
	waitText(t, tab, "#status-text", "Ready")
	// The closed run is saved at once (chatsRunEnded), not after the coalescing delay; the
	// wait allows for the IndexedDB write, and a reply that stays "streaming" fails it.
	var rec chatRecord
	done := false
	for deadline := time.Now().Add(10 * time.Second); !done && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		rec = waitStoredEntry(t, tab, reply)
		for _, e := range rec.Entries {
			done = done || (e.Text == reply && e.State == "done")
		}
	}
	if !done {
		t.Fatalf("the streamed reply is not kept whole as the run's done entry: %+v", rec.Entries)
	}
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#transcript", reply)
	// The kept usage line does not claim this page's session, which starts again at zero
	// (nu16 item 18).
	waitContains(t, tab, "#transcript", "session total of the page that ran it: 3,325 tokens")
	if s := transcriptText(t, tab); strings.Contains(s, "this session") {
		t.Errorf("after a reload a kept usage line claims this session: %q", s)
	}
	noConsoleErrors(t, tab)
}

// TestSiteDataBlockedIsMemoryOnly: in a real profile whose site data is blocked (cookies
// setting "block": IndexedDB, localStorage and Web Locks all refuse with SecurityError) the
// only tab is not read-only. It runs in memory mode, agent runs edit the workspace, and the
// chat says plainly that it is not kept, never that the workspace is open in another tab or
// that a stored conversation could not be restored (nu16 item 1).
func TestSiteDataBlockedIsMemoryOnly(t *testing.T) {
	t.Parallel()
	tab := chromium.NewProfileTab(t, `{"profile":{"default_content_setting_values":{"cookies":2}}}`)
	if err := tab.Do(loadTimeout, chromedp.Navigate(site(t))); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	blocked, err := chromium.Eval[bool](tab, 10*time.Second, `navigator.locks.request("probe", () => 1).then(() => false, e => e.name === "SecurityError")`)
	if err != nil || !blocked {
		t.Fatalf("the profile does not block Web Locks (blocked=%v, %v): the test would prove nothing", blocked, err)
	}
	waitContains(t, tab, "#storage-mode", "Memory only")
	waitContains(t, tab, "#transcript", "Memory only: this chat is not kept.")
	sendPrompt(t, tab, "Change the heading text to Hello World")
	approve(t, tab, "workspace.applyPatch")
	waitRunDone(t, tab)
	waitFileContains(t, tab, "index.html", ">Hello World</h1>")
	for _, sel := range []string{"#transcript", "#studio-notice", "#storage-mode"} {
		got, err := chromium.Eval[string](tab, 5*time.Second, `(document.querySelector(`+jsString(sel)+`)||{}).textContent || ""`)
		if err != nil {
			t.Fatal(err)
		}
		for _, lie := range []string{"another tab", "read-only", "Read-only", "could not be restored", "left as it was"} {
			if strings.Contains(got, lie) {
				t.Errorf("%s says %q with site data blocked and one tab: %q", sel, lie, got)
			}
		}
	}
	noConsoleErrors(t, tab)
}

// TestChatReloadRightAfterSendKeepsTheRun: the prompt and the run's started state are kept as
// soon as the run starts, before its request goes out (not after the coalescing delay), so a
// reload the moment the provider has the request still shows the prompt, interrupted, with
// Retry (nu16 item 5: a reload within 0.5 s of Send lost the run).
func TestChatReloadRightAfterSendKeepsTheRun(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, fakeprovider.Step{Hang: true})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	const prompt = "Make the footer sparkle right now"
	sendPrompt(t, tab, prompt)
	for deadline := time.Now().Add(20 * time.Second); len(fake.ChatRequests()) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the provider never got the request")
		}
	}
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#transcript", prompt)
	waitContains(t, tab, "#transcript", "was interrupted when the page closed or reloaded")
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `!!document.querySelector('#transcript button[data-action="recovery-retry-prompt"]')`); err != nil {
		t.Fatalf("the interrupted run offers no Retry: %v; transcript %q", err, transcriptText(t, tab))
	}
}

// TestChatReloadMidStreamKeepsPartialText: a reload while a reply streams keeps the text
// that was on screen up to the last save (not only the first fragment), shown as an
// incomplete reply, not as a normal answer (nu16 item 12).
func TestChatReloadMidStreamKeepsPartialText(t *testing.T) {
	t.Parallel()
	full := fakeprovider.Body("stream_final_text.sse")
	head := full[:fakeprovider.Offset(full, `data: {"id":"gen-1764460900-ssssssssssssssssssss","provider":"OpenAI","model":"openai/gpt-4o-mini","object":"chat.completion.chunk","created":1764460900,"choices":[{"index":0,"delta":{"role":"assistant","content":"in styles`, 0)]
	step := fakeprovider.Step{Body: head, Header: map[string]string{"Content-Type": "text/event-stream"}, HangAfter: true,
		ChunkDelay: 300 * time.Millisecond,
		Cuts:       []int{fakeprovider.Offset(head, `"content":"emerald`, 0), fakeprovider.Offset(head, `"content":"(에메`, 0)}}
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, step)
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Make it emerald")
	const shown = "I switched the preview theme to emerald (에메랄드 💚): the accent tokens"
	waitContains(t, tab, "#transcript", shown)
	waitStoredEntry(t, tab, shown) // the last save before the reload holds all the text on screen
	if st, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#status-text").textContent`); !strings.HasPrefix(st, "Running") || len(fake.ChatRequests()) != 1 {
		t.Fatalf("the text was kept only after the run ended (status %q, %d requests): it must be kept while the reply streams", st, len(fake.ChatRequests()))
	}
	if err := tab.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#transcript .entry-partial", shown)
	waitContains(t, tab, "#transcript .entry-partial", "Interrupted")
	waitContains(t, tab, "#transcript", "was interrupted when the page closed or reloaded")
	n, err := chromium.Eval[int](tab, 5*time.Second, `[...document.querySelectorAll("#transcript .entry-agent")].filter(e => e.textContent.includes("I switched")).length`)
	if err != nil || n != 0 {
		t.Errorf("the cut reply is shown as %d normal answer entries (%v), want 0", n, err)
	}
}

// TestNewChatDisabledDuringRun: while a run is going New chat is disabled and its title says
// why, at once (nu16 item 11: the click gave no feedback until the run ended); it is enabled
// again when the run ends.
func TestNewChatDisabledDuringRun(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, fakeprovider.Step{Hang: true})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `(() => { const b = document.querySelector("#new-chat"); return !!b && !b.disabled; })()`); err != nil {
		t.Fatalf("New chat is not there and enabled before a run: %v", err)
	}
	sendPrompt(t, tab, "Make the footer sparkle")
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `(() => { const b = document.querySelector("#new-chat");
		return document.querySelector("#status-text").textContent.startsWith("Running") && b.disabled && b.title === "Cancel the running prompt before starting a new chat."; })()`); err != nil {
		st, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#status-text").textContent + " | disabled=" + document.querySelector("#new-chat").disabled + " | " + document.querySelector("#new-chat").title`)
		t.Fatalf("New chat is not disabled with its reason during the run: %v (%s)", err, st)
	}
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#cancel-run"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, 20*time.Second, `(() => { const b = document.querySelector("#new-chat"); return !document.querySelector("#status-text").textContent.startsWith("Running") && !b.disabled && b.title === "Start a new chat"; })()`); err != nil {
		t.Fatalf("New chat is not enabled again after the run: %v", err)
	}
}

// TestSecondTabTakeOverKeepsWrites (no lost work): a read-only second tab that takes the
// workspace lock over when the first tab closes rebuilds its session before it accepts writes.
// A write B sends while that happens is either refused (WORKSPACE_READ_ONLY) or kept: the file
// holds the first accepted text after the takeover and after a reload. Before the fix the
// repository was granted first, the old session accepted the write and the rebuild dropped it.
func TestSecondTabTakeOverKeepsWrites(t *testing.T) {
	t.Parallel()
	profile := chromium.NewRecycledTab(t)
	a := openStudioIn(t, profile)
	waitContains(t, a, "#storage-mode", "Saved in this browser")
	b := chromium.NewTabIn(t, profile)
	if err := b.Do(loadTimeout, chromedp.Navigate(site(t))); err != nil {
		t.Fatal(err)
	}
	waitText(t, b, "#status-text", "Ready")
	waitContains(t, b, "#studio-notice", "Read-only")
	// B writes styles.css every 15 ms until one write is accepted (at most 400 tries).
	loop := `(window.__take = {done: false, codes: [], text: ""}, (async () => {
	  for (let i = 0; i < 400; i++) {
	    const text = "/* written by the second tab, try " + i + " */\n";
	    const req = JSON.stringify({jsonrpc: "2.0", id: 9000 + i, method: "tools/call", params: {name: "workspace.writeFile",
	      arguments: {path: "styles.css", source: text}, _meta: {source: "local", mode: "direct", toolCallId: "takeover-" + i}}});
	    const r = JSON.parse(await webcodingHandle(req)).result || {};
	    const code = (r.structuredContent && r.structuredContent.code) || "";
	    window.__take.codes.push(code);
	    // An applied write (also one whose preview did not acknowledge in time) is kept.
	    if (!r.isError || (r.structuredContent && r.structuredContent.details && r.structuredContent.details.applied)) { window.__take.text = text; break; }
	    await new Promise((res) => setTimeout(res, 15));
	  }
	  window.__take.done = true;
	})(), true)`
	if _, err := chromium.Eval[bool](b, loadTimeout, loop); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Cancel(a.Ctx); err != nil {
		t.Fatal(err)
	}
	waitContains(t, b, "#transcript", "this tab now saves the workspace")
	if _, err := chromium.WaitFor[bool](b, loadTimeout, `window.__take.done`); err != nil {
		t.Fatal(err)
	}
	written, _ := chromium.Eval[string](b, loadTimeout, `window.__take.text`)
	codes, _ := chromium.Eval[[]string](b, loadTimeout, `window.__take.codes`)
	if written == "" {
		t.Fatalf("no write was accepted after the takeover: codes %v", codes)
	}
	for _, c := range codes[:len(codes)-1] {
		if c != "WORKSPACE_READ_ONLY" {
			t.Fatalf("a refused write gave %q, want WORKSPACE_READ_ONLY: %v", c, codes)
		}
	}
	read := func(tab *chromium.Tab) string {
		sc := directCall(t, tab, "workspace.readFile", `{"path":"styles.css"}`)
		s, _ := sc["source"].(string)
		return s
	}
	time.Sleep(time.Second) // past the rebuild and the repository's write
	if got := read(b); got != written {
		t.Fatalf("after the takeover styles.css is %q, want the accepted write %q (codes %v)", got, written, codes)
	}
	if err := b.Do(loadTimeout, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitText(t, b, "#status-text", "Ready")
	if got := read(b); got != written {
		t.Fatalf("after a reload styles.css is %q, want the accepted write %q", got, written)
	}
}
