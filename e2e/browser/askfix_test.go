package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/host/fakeprovider"
)

// TestAskToFixCarriesTheError (issue 17): a runtime error offers "Ask to fix", which attaches
// an error chip with the message, app.js and the line of the throw, and a console excerpt, and
// focuses the prompt — the line of the banner's error, not of a later one (new-user test of
// issue 17: a newer error's line was attached); sent to a model (the fake provider), the chip's context block follows
// the prompt in the user message, and the chip is gone from the composer.
func TestAskToFixCarriesTheError(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey}, fakeprovider.Step{Body: chatBody("Looking at it.")})
	tab := openProviderStudio(t, nil)
	app := "setTimeout(() => { throw new Error(\"later on one\"); }, 0);\nconsole.warn(\"about to fail\");\nthrow new Error(\"boom on three\");\n"
	if res := toolCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(app)+`}`); !strings.Contains(toJSON(res), "PREVIEW_RUNTIME_ERROR") {
		t.Fatalf("the write should report the runtime error: %s", toJSON(res))
	}
	waitContains(t, tab, "#preview-error", "Ask to fix")
	// The console entry with the line may arrive just after the error: wait for it.
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `document.querySelector("#preview-console").textContent.includes("boom on three") && document.querySelector("#preview-console").textContent.includes("later on one")`); err != nil {
		t.Fatalf("console: %v", err)
	}
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`#preview-error [data-action="ask-to-fix"]`))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#context-chips", "Error: boom on three (app.js:3)")
	ctx, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#context-chips .chip-context").textContent`)
	for _, want := range []string{"[context: preview runtime error", "error: Uncaught Error: boom on three", "source: app.js:3", "warn: about to fail (app.js:2)", "[end of context]"} {
		if !strings.Contains(ctx, want) {
			t.Errorf("chip context lacks %q: %s", want, ctx)
		}
	}
	if focused, _ := chromium.Eval[string](tab, 5*time.Second, `document.activeElement.id`); focused != "prompt" {
		t.Errorf("focus after Ask to fix: %q", focused)
	}

	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "Please fix this")
	waitContains(t, tab, "#transcript", "Looking at it.")
	reqs := fake.ChatRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	msgs, _ := reqs[0].Chat["messages"].([]any)
	last, _ := msgs[len(msgs)-1].(map[string]any)
	content := fmt.Sprint(last["content"])
	if last["role"] != "user" || !strings.HasPrefix(content, "Please fix this\n\n[context: preview runtime error") || !strings.Contains(content, "source: app.js:3") {
		t.Fatalf("the model's user message: %q", content)
	}
	if n := evalNum(tab, `document.querySelectorAll("#context-chips li").length`); n != 0 {
		t.Errorf("%v chips left after sending", n)
	}
	// The chat shows what the user typed and one line per chip, never the context block
	// (re-test of issue 17: the whole block was the user's chat message).
	shown, _ := chromium.Eval[string](tab, 5*time.Second, `Array.from(document.querySelectorAll("#transcript .entry-user, #transcript .entry-info")).map(e => e.textContent).join("\n")`)
	if strings.Contains(shown, "[context:") || !strings.Contains(shown, "Please fix this") || !strings.Contains(shown, "With context: Error") {
		t.Errorf("the chat shows:\n%s", shown)
	}
}
