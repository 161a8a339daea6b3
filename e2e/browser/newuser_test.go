package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/host/fakeprovider"
)

// TestSameTabNavigationIsWritable: navigating the same tab to the studio again (a retyped URL,
// a ?prompt= link) must not come up read-only: the previous page still holds the workspace
// lock for a moment while it unloads, and the new page waits for it (lock.go).
func TestSameTabNavigationIsWritable(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	waitContains(t, tab, "#storage-mode", "Saved in this browser")
	prev := ""
	for i, url := range []string{site(t) + "?prompt=x", site(t), site(t) + "?prompt=y"} {
		if err := tab.Do(loadTimeout, chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
		waitText(t, tab, "#status-text", "Ready")
		waitContains(t, tab, "#storage-mode", "Saved in this browser")
		if prev != "" {
			if got := readREADME(t, tab); got != prev {
				t.Errorf("navigation %d: README = %q, want the previous page's stored %q", i, got, prev)
			}
		}
		// Stays writable: the write is stored (the next navigation reads it back) and no
		// read-only notice is shown.
		prev = "navigation " + string(rune('0'+i))
		directCall(t, tab, "workspace.writeFile", `{"path":"README.md","source":`+jsString(prev)+`}`)
		time.Sleep(300 * time.Millisecond) // let a late read-only switch show, if any
		if mode, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#storage-mode").textContent`); !strings.Contains(mode, "Saved in this browser") {
			t.Errorf("navigation %d (%s): storage %q after a write", i, url, mode)
		}
		if hidden, _ := chromium.Eval[bool](tab, 5*time.Second, `document.querySelector("#studio-notice").hidden`); !hidden {
			notice, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#studio-notice").textContent`)
			t.Errorf("navigation %d (%s): notice shown: %q", i, url, notice)
		}
	}
	noConsoleErrors(t, tab)
}

// TestReadOnlyTabTakesOverWhenFirstLeaves: a true second tab is read-only; when the first
// tab goes away its queued lock request is granted and it switches to writable, reloaded
// from IndexedDB (the first tab's stored README wins over its own unsaved write).
func TestReadOnlyTabTakesOverWhenFirstLeaves(t *testing.T) {
	t.Parallel()
	profile := chromium.NewRecycledTab(t)
	first := openStudioIn(t, profile)
	waitContains(t, first, "#storage-mode", "Saved in this browser")
	stored := "stored by the first tab " + time.Now().Format(time.RFC3339Nano)
	directCall(t, first, "workspace.writeFile", `{"path":"README.md","source":`+jsString(stored)+`}`)

	second := chromium.NewTabIn(t, profile)
	if err := second.Do(loadTimeout, chromedp.Navigate(site(t))); err != nil {
		t.Fatal(err)
	}
	waitText(t, second, "#status-text", "Ready")
	waitContains(t, second, "#studio-notice", "Read-only")
	if code := toolErrorCode(t, second, "workspace.writeFile", `{"path":"README.md","source":"unsaved in the second tab"}`); code != "WORKSPACE_READ_ONLY" {
		t.Errorf("writeFile in the read-only tab: %q, want WORKSPACE_READ_ONLY", code)
	}

	if err := chromedp.Cancel(first.Ctx); err != nil { // close the first tab
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](second, loadTimeout, `document.querySelector("#storage-mode").textContent.includes("Saved in this browser")`); err != nil {
		locks, _ := chromium.Eval[string](second, 5*time.Second, `navigator.locks.query().then(q => JSON.stringify(q))`)
		t.Fatalf("the second tab stays read-only after the first left: %v; locks %s; console %v", err, locks, second.Console())
	}
	if _, err := chromium.WaitFor[bool](second, loadTimeout, `document.querySelector("#studio-notice").hidden`); err != nil {
		t.Fatalf("the read-only notice stays after the first tab left: %v", err)
	}
	if got := readREADME(t, second); got != stored {
		t.Errorf("README after take-over = %q, want the stored %q", got, stored)
	}
	noConsoleErrors(t, second)
}

// saveSettingsExpectingError types into the open settings dialog, presses Save and waits for
// the dialog's form error containing want (the dialog stays open).
func saveSettingsExpectingError(t *testing.T, tab *chromium.Tab, key, endpoint, want string) {
	t.Helper()
	if err := tab.Do(10*time.Second,
		chromedp.SetValue(chromedp.CSS("#settings-key"), key),
		chromedp.SetValue(chromedp.CSS("#settings-endpoint"), endpoint),
		chromedp.Click(chromedp.CSS("#settings-save")),
	); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#settings-form-error", want)
	if open, _ := chromium.Eval[bool](tab, 5*time.Second, `document.querySelector("#settings-dialog").open`); !open {
		t.Errorf("the dialog closed on an invalid value (%q)", want)
	}
	if msg, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#settings-form-error").textContent`); strings.Contains(msg, "pw") || strings.Contains(msg, "ключ") {
		t.Errorf("the form error repeats a credential: %q", msg)
	}
}

// TestProviderEndpointAndKeyChecks: an upper-case scheme is a valid endpoint (saved
// normalized, the run reaches the fake); an endpoint with user:password and a key with
// non-ASCII characters are refused at Save with a message inside the dialog, and nothing
// else is saved.
func TestProviderEndpointAndKeyChecks(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{Body: chatBody("Upper-case scheme works.")})
	tab := openProviderStudio(t, nil)
	upper := "HTTP://" + strings.TrimPrefix(fake.ChatURL, "http://")
	configureProvider(t, tab, upper, testModel)
	sendPrompt(t, tab, "Say hello")
	waitContains(t, tab, "#transcript", "Upper-case scheme works.")
	if n := len(fake.ChatRequests()); n != 1 {
		t.Errorf("the fake saw %d chat requests, want 1", n)
	}

	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#provider-settings-open"))); err != nil {
		t.Fatal(err)
	}
	withUser := "http://user:pw@" + strings.TrimPrefix(fake.ChatURL, "http://")
	saveSettingsExpectingError(t, tab, testKey, withUser, "must not contain a user name or password")
	saveSettingsExpectingError(t, tab, "sk-ключ-🔑-X", fake.ChatURL, "printable ASCII")
	// Plain http is for this computer only (design §5.16): a remote http endpoint is refused.
	saveSettingsExpectingError(t, tab, testKey, "http://example.com/v1/chat/completions", "plain http is only allowed to this computer")
	stored, _ := chromium.Eval[string](tab, 5*time.Second, `JSON.stringify([localStorage.getItem("context-action.openrouter.keys"), localStorage.getItem("context-action.openrouter.endpoint")])`)
	if strings.Contains(stored, "pw@") || strings.Contains(stored, "ключ") || !strings.Contains(stored, testKey) {
		t.Errorf("stored settings after refused saves: %s", stored)
	}
	noConsoleErrors(t, tab)
}

// TestSettingsCatalogNamesTypedEndpoint: "Load models" for a typed (unsaved) custom endpoint
// without a catalog names that endpoint, not the saved one; a one-model catalog is "1
// tool-capable model" (singular).
func TestSettingsCatalogNamesTypedEndpoint(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{Models: []byte(`{"data":[{"id":"a/one:free","name":"One","supported_parameters":["tools"],"pricing":{"prompt":"0","completion":"0"}}]}`)})
	tab := openProviderStudio(t, nil)
	custom := strings.TrimSuffix(fake.ChatURL, "/chat/completions") + "/custom-llm"
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#provider-settings-open")),
		chromedp.SetValue(chromedp.CSS("#settings-endpoint"), custom),
		chromedp.Click(chromedp.CSS("#settings-load-models"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#settings-catalog-status", "This endpoint ("+custom+") has no model catalog")
	if err := tab.Do(10*time.Second, chromedp.SetValue(chromedp.CSS("#settings-endpoint"), fake.ChatURL),
		chromedp.Click(chromedp.CSS("#settings-load-models"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#settings-catalog-status", "1 tool-capable model (1 free) · showing 1")
	noConsoleErrors(t, tab)
}

func activeID(t *testing.T, tab *chromium.Tab) string {
	t.Helper()
	id, _ := chromium.Eval[string](tab, 5*time.Second, `document.activeElement ? (document.activeElement.id || document.activeElement.tagName) : ""`)
	return id
}

// waitFocus waits until the element with id has keyboard focus.
func waitPromptFocus(t *testing.T, tab *chromium.Tab, id, after string) {
	t.Helper()
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `document.activeElement && document.activeElement.id === `+jsString(id)); err != nil {
		t.Errorf("after %s focus is on %q, want #%s", after, activeID(t, tab), id)
	}
}

// TestComposerDuringRun: while a run waits for approval Send is disabled and Cancel enabled;
// a prompt submitted anyway stays in the box (with a notice), Escape denies and moves focus
// to the prompt box, Ctrl+Enter sends from the box, and the Cancel button hands focus back to
// the prompt box.
func TestComposerDuringRun(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	sendPrompt(t, tab, "Make it amber")
	waitApproval(t, tab, "preview.setTheme")
	state, _ := chromium.Eval[[]bool](tab, 5*time.Second, `[document.querySelector('#chat-form button[type="submit"]').disabled, document.querySelector("#cancel-run").disabled]`)
	if len(state) != 2 || !state[0] || state[1] {
		t.Errorf("during a run [Send disabled, Cancel disabled] = %v, want [true false]", state)
	}
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => { document.querySelector("#prompt").value = "my second prompt";
		document.querySelector("#chat-form").requestSubmit(); return true; })()`); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "your prompt stays in the box")
	if v, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#prompt").value`); v != "my second prompt" {
		t.Errorf("the prompt box holds %q after a submit during a run, want the prompt kept", v)
	}
	// Escape at the approval card denies (cancels) and focus goes to the prompt box.
	if err := tab.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.querySelector("#approve-0").focus()`), chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Execution cancelled.")
	waitPromptFocus(t, tab, "prompt", "Escape at an approval card")
	if d, _ := chromium.Eval[bool](tab, 5*time.Second, `document.querySelector('#chat-form button[type="submit"]').disabled`); d {
		t.Error("Send stays disabled after the run ended")
	}
	// Ctrl+Enter in the prompt box sends.
	if err := tab.Do(5*time.Second, chromedp.SetValue(chromedp.CSS("#prompt"), "Make it amber"),
		chromedp.Focus(chromedp.CSS("#prompt")), chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	waitApproval(t, tab, "preview.setTheme")
	if v, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#prompt").value`); v != "" {
		t.Errorf("after Ctrl+Enter the prompt box holds %q", v)
	}
	// The Cancel button: focus returns to the prompt box, not <body>.
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#cancel-run"))); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Execution cancelled.")
	waitPromptFocus(t, tab, "prompt", "Cancel")
	noConsoleErrors(t, tab)
}

// TestHistoryRestoreKeepsFocus: after a confirmed restore, keyboard focus is on the prompt
// box, not dropped to <body> when the history panel redraws.
func TestHistoryRestoreKeepsFocus(t *testing.T) {
	t.Parallel()
	tab := openIsolatedStudio(t, "")
	directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":"console.log(\"focus test\");\n"}`)
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => { const b = document.querySelector("#inspector-tab-history"); if (b) b.click(); return true; })()`); err != nil {
		t.Fatal(err)
	}
	paletteWait(t, tab, "history panel with 2 checkpoints", `(() => { const p = document.querySelector("#history-panel"); return !p.hidden && p.querySelectorAll(".history-row").length === 2; })()`)
	first, _ := chromium.Eval[string](tab, 5*time.Second, `[...document.querySelectorAll("#history-panel .history-row button")].pop().dataset.revision`)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#history-"+first))); err != nil {
		t.Fatal(err)
	}
	paletteWait(t, tab, "restore button", `!!document.querySelector("#history-restore")`)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#history-restore"))); err != nil {
		t.Fatal(err)
	}
	paletteWait(t, tab, "confirm dialog", `document.querySelector("#confirm-dialog").open`)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#confirm-dialog-ok"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Restored revision "+first+" as revision")
	waitPromptFocus(t, tab, "prompt", "a confirmed restore")
	time.Sleep(500 * time.Millisecond) // a later redraw must not drop it again
	if id := activeID(t, tab); id == "BODY" {
		t.Errorf("focus dropped to <body> after the restore settled")
	}
	noConsoleErrors(t, tab)
}

// TestUserDenyIsShownAsYours: pressing Deny shows "Denied by you." in the chat (the wire
// code stays TOOL_POLICY_DENIED, REFERENCE §3.2), not "denied by policy"; Escape shows the
// denial as a cancelled run.
func TestUserDenyIsShownAsYours(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	sendPrompt(t, tab, "Make it amber")
	waitApproval(t, tab, "preview.setTheme")
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS("#deny-0"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "✗ preview.setTheme [TOOL_POLICY_DENIED] Denied by you.")
	if s := transcriptText(t, tab); strings.Contains(s, "denied by policy") {
		t.Errorf("the user's Deny is shown as a policy denial: %q", s)
	}
	waitText(t, tab, "#status-text", "Ready")
	sendPrompt(t, tab, "Make it amber")
	waitApproval(t, tab, "preview.setTheme")
	if err := tab.Do(5*time.Second, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "[TOOL_POLICY_DENIED] Denied: you cancelled the run.")
	noConsoleErrors(t, tab)
}

// TestFileDialogKeepsInvalidName: an invalid path in New file or Rename keeps the dialog
// open with the typed value and the error inside it (role=alert, aria-describedby); a valid
// path then works; the chat gets no error entry.
func TestFileDialogKeepsInvalidName(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	before := transcriptText(t, tab)
	click(t, tab, `[aria-label="Create new workspace file"]`)
	waitDialog(t, tab, true)
	bad := "../outside.md"
	if err := tab.Do(10*time.Second, chromedp.SetValue(chromedp.CSS("#file-dialog-input"), bad), chromedp.Click(chromedp.CSS("#file-dialog-ok"))); err != nil {
		t.Fatal(err)
	}
	check := func(what, want string) {
		t.Helper()
		if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `(() => { const d = document.querySelector("#file-dialog"), e = document.querySelector("#file-dialog-error"), i = document.querySelector("#file-dialog-input");
			return d.open && !!e && !e.hidden && e.getAttribute("role") === "alert" && e.textContent.includes("[WORKSPACE_") &&
				i.getAttribute("aria-describedby") === "file-dialog-error" && i.getAttribute("aria-invalid") === "true" &&
				i.value === `+jsString(want)+` && document.activeElement === i; })()`); err != nil {
			state, _ := chromium.Eval[string](tab, 5*time.Second, `JSON.stringify({open: document.querySelector("#file-dialog").open, err: (document.querySelector("#file-dialog-error")||{}).textContent, value: document.querySelector("#file-dialog-input").value, focus: document.activeElement.id})`)
			t.Fatalf("%s: the dialog does not keep the typed value with the error inside: %s", what, state)
		}
	}
	check("new file", bad)
	// Fixing the name creates the file and closes the dialog; the error is gone next time.
	good := "notes/fixed-" + time.Now().Format("150405.000") + ".md"
	if err := tab.Do(10*time.Second, chromedp.SetValue(chromedp.CSS("#file-dialog-input"), good), chromedp.Click(chromedp.CSS("#file-dialog-ok"))); err != nil {
		t.Fatal(err)
	}
	waitDialog(t, tab, false)
	hasFile(t, tab, good, true)

	click(t, tab, `[aria-label="Rename `+good+`"]`)
	waitDialog(t, tab, true)
	if hidden, _ := chromium.Eval[bool](tab, 5*time.Second, `(() => { const e = document.querySelector("#file-dialog-error"); return !e || e.hidden; })()`); !hidden {
		t.Error("a fresh dialog still shows the previous error")
	}
	if err := tab.Do(10*time.Second, chromedp.SetValue(chromedp.CSS("#file-dialog-input"), "../renamed.md"), chromedp.Click(chromedp.CSS("#file-dialog-ok"))); err != nil {
		t.Fatal(err)
	}
	check("rename", "../renamed.md")
	click(t, tab, "#file-dialog-cancel")
	waitDialog(t, tab, false)
	hasFile(t, tab, good, true)
	if after := transcriptText(t, tab); strings.Contains(strings.TrimPrefix(after, before), "[WORKSPACE_") {
		t.Errorf("the chat got the dialog's error: %q", after)
	}
	noConsoleErrors(t, tab)
}

// TestProviderInvalidToolCallIsVisible: a model call with truncated arguments is not run,
// but the chat shows "✗ <tool> [OPENROUTER_INVALID_TOOL_CALL] …" and the trace has a failed
// row for it.
func TestProviderInvalidToolCallIsVisible(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{Body: chatBody("", "bad-call-1", "workspace_readFile", `{"path":`)},
		fakeprovider.Step{Body: chatBody("The arguments were cut off.")})
	tab := openProviderStudio(t, nil)
	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Read the readme")
	waitContains(t, tab, "#transcript", "The arguments were cut off.")
	waitContains(t, tab, "#transcript", "✗ workspace.readFile [OPENROUTER_INVALID_TOOL_CALL]")
	found := false
	for _, r := range traceRows(t, tab) {
		if r.Name == "workspace.readFile" && r.Status == "failed" {
			found = true
			if !strings.Contains(r.Summary, "OPENROUTER_INVALID_TOOL_CALL") {
				t.Errorf("trace row summary %q, want the error code", r.Summary)
			}
		}
	}
	if !found {
		t.Errorf("no failed workspace.readFile row in the trace: %+v", traceRows(t, tab))
	}
	noConsoleErrors(t, tab)
}
