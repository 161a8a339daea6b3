package browser

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

func approve(t *testing.T, tab *chromium.Tab, tool string) {
	t.Helper()
	waitApproval(t, tab, tool)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#approve-0"))); err != nil {
		t.Fatal(err)
	}
}

// waitRunDone waits until the agent run finished (status back to Ready).
func waitRunDone(t *testing.T, tab *chromium.Tab) {
	t.Helper()
	waitText(t, tab, "#status-text", "Ready")
}

func TestHeroAndFeaturePromptsChangeThePreview(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	sendPrompt(t, tab, `Update the hero title to "Ship from context" with subtitle "Typed tools keep the preview honest."`)
	approve(t, tab, "preview.updateHero")
	waitRunDone(t, tab)
	if got, err := chromium.WaitInFrame(tab, 10*time.Second, `document.querySelector("#hero-title").textContent.trim()`, "Ship from context"); err != nil {
		t.Fatalf("hero title in the preview = %q: %v", got, err)
	}
	sendPrompt(t, tab, `Add a feature card "Inspectable tools" "Every call leaves a trace."`)
	approve(t, tab, "preview.addFeature")
	waitRunDone(t, tab)
	if _, err := chromium.WaitInFrame(tab, 10*time.Second, `document.body.textContent.includes("Inspectable tools") && document.body.textContent.includes("Every call leaves a trace.")`, true); err != nil {
		t.Fatalf("feature card not in the preview: %v", err)
	}
	noConsoleErrors(t, tab)
}

func TestErrorPromptsShowCodes(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	sendPrompt(t, tab, `Change missing.md from "old" to "new"`)
	waitContains(t, tab, "#transcript", "[WORKSPACE_FILE_NOT_FOUND]")
	waitRunDone(t, tab)

	sendPrompt(t, tab, `Change index.html from "text that is not in this file" to "new text"`)
	approve(t, tab, "workspace.applyPatch")
	waitContains(t, tab, "#transcript", "[WORKSPACE_PATCH_NOT_FOUND]")
	waitRunDone(t, tab)

	sendPrompt(t, tab, `Delete file index.html`)
	approve(t, tab, "workspace.deleteFile")
	waitContains(t, tab, "#transcript", "[WORKSPACE_PREVIEW_ENTRY_REQUIRED]")
	waitRunDone(t, tab)
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll('[aria-label="Open index.html"]').length`); n != 1 {
		t.Error("index.html is gone from the file list after a refused delete")
	}
	noConsoleErrors(t, tab)
}

// TestRuntimeErrorAlert: a preview that throws shows the runtime error alert; fixing the code
// recovers.
func TestRuntimeErrorAlert(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"].(string)
	resp := rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.writeFile","arguments":{"path":"app.js","source":"throw new Error(\"boom from the preview\");"},"_meta":{"source":"local","mode":"direct"}}}`)
	res := resp["result"].(map[string]any)
	if res["isError"] != true || !strings.Contains(toJSON(res["error"]), "PREVIEW_RUNTIME_ERROR") || !strings.Contains(toJSON(res["error"]), `"applied":true`) {
		t.Errorf("writeFile of a throwing script: %v", res["error"])
	}
	waitContains(t, tab, `#preview-error [role="alert"]`, "boom from the preview")
	waitContains(t, tab, "#preview-status", "error")
	directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(src)+`}`)
	waitContains(t, tab, "#preview-status", "acknowledged")
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll('#preview-error [role="alert"]').length`); n != 0 {
		t.Error("the runtime error alert stayed after the fix")
	}
	// The only console error allowed is the preview's deliberate one (it runs in the frame).
	for _, e := range tab.Errors() {
		if !strings.Contains(e.Text, "boom from the preview") {
			t.Errorf("console error: %v", e)
		}
	}
}

func TestMobileLayoutHasNoHorizontalOverflow(t *testing.T) {
	t.Parallel()
	url := site(t)
	tab := chromium.NewRecycledTab(t)
	mobile := chromedp.Action[chromedp.Void](func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: 390, Height: 844, DeviceScaleFactor: 2, Mobile: true})
		return chromedp.Void{}, err
	})
	if err := tab.Do(loadTimeout, mobile, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#preview-status", "acknowledged")
	w, err := chromium.Eval[[]int](tab, 5*time.Second, `[document.documentElement.scrollWidth, window.innerWidth]`)
	if err != nil {
		t.Fatal(err)
	}
	if w[0] > w[1] {
		t.Errorf("horizontal overflow at 390 px: scrollWidth %d > innerWidth %d", w[0], w[1])
	}
}
