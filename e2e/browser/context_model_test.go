package browser

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/host/fakeprovider"
)

// TestModelReadsThePreview (issue 17, the model path of the context tools): a model (the fake
// provider) calls preview.inspect on the hero heading, preview.getConsole and preview.audit in
// one turn; the studio runs all three through the registry without an approval (they are
// read-only) and the next request the fake receives carries the three results under their
// call ids: inspect from the live page (computed true, a box), the page's console entry, and
// the planted missing-alt image among the audit's violations.
func TestModelReadsThePreview(t *testing.T) {
	t.Parallel()
	fake := fakeprovider.New(t, fakeprovider.Options{WantKey: testKey},
		fakeprovider.Step{Body: chatBody("",
			"call_inspect_1", "preview_inspect", `{"selector":"#hero-title"}`,
			"call_console_2", "preview_getConsole", `{}`,
			"call_audit_3", "preview_audit", `{}`)},
		fakeprovider.Step{Body: chatBody("The heading is fine; the image needs alt text.")})
	tab := openProviderStudio(t, nil)
	rev := ackedRevision(t, tab)
	// Plant a console line and an image without alt text in the running page.
	app := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"].(string)
	directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(app+"\nconsole.warn(\"seen by the model\");\n")+`}`)
	html := directCall(t, tab, "workspace.readFile", `{"path":"index.html"}`)["source"].(string)
	if !strings.Contains(html, "</body>") {
		t.Fatalf("index.html has no </body>: %.200s", html)
	}
	img := `<img id="noalt" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==" width="40" height="40">`
	directCall(t, tab, "workspace.writeFile", `{"path":"index.html","source":`+jsString(strings.Replace(html, "</body>", img+"</body>", 1))+`}`)
	rev = ackedRevisionAfter(t, tab, rev)
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `document.querySelector("#preview-console").textContent.includes("seen by the model")`); err != nil {
		t.Fatalf("the page's console line did not arrive: %v", err)
	}
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(window.__approvals = 0, webcodingSubscribe(e => { if (e.kind === "approvals" && e.approvals && e.approvals.length) window.__approvals++; }), true)`); err != nil {
		t.Fatal(err)
	}

	configureProvider(t, tab, fake.ChatURL, testModel)
	sendPrompt(t, tab, "What does the preview show, and what is wrong with it?")
	waitContains(t, tab, "#transcript", "The heading is fine; the image needs alt text.")
	waitText(t, tab, "#status-text", "Ready")
	if n := evalNum(tab, `window.__approvals`); n != 0 {
		t.Errorf("%v approval requests for read-only tools", n)
	}
	if n := evalNum(tab, `document.querySelectorAll("#approvals .approval-card").length`); n != 0 {
		t.Errorf("%v approval cards", n)
	}
	tr := transcriptText(t, tab)
	for _, want := range []string{"✓ preview.inspect", "✓ preview.getConsole", "✓ preview.audit"} {
		if !strings.Contains(tr, want) {
			t.Errorf("transcript lacks %q: %q", want, tr)
		}
	}

	reqs := fake.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("the fake saw %d chat requests, want 2", len(reqs))
	}
	results := map[string]map[string]any{}
	msgs, _ := reqs[1].Chat["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] != "tool" {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(fmt.Sprint(mm["content"])), &v); err != nil {
			t.Fatalf("tool message %v is not JSON: %v", mm["tool_call_id"], err)
		}
		results[fmt.Sprint(mm["tool_call_id"])] = v
	}
	in := results["call_inspect_1"]
	box, _ := in["box"].(map[string]any)
	if in["computed"] != true || in["revision"] != float64(rev) || in["tag"] != "h1" || box == nil || box["width"].(float64) <= 0 {
		t.Errorf("preview.inspect result sent to the model: %s", toJSON(in))
	}
	con := results["call_console_2"]
	if con["runtime"] != true || !strings.Contains(toJSON(con["entries"]), "seen by the model") || con["revision"] != float64(rev) {
		t.Errorf("preview.getConsole result sent to the model: %s", toJSON(con))
	}
	au := results["call_audit_3"]
	if alt := violation(au, "image-alt"); alt == nil || !hasSelector(alt, "#noalt") || au["revision"] != float64(rev) {
		t.Errorf("preview.audit result sent to the model: %.600s", toJSON(au))
	}
	noConsoleErrors(t, tab)
}
