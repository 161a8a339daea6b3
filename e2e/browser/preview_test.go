package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
)

// toolCall runs a tool in direct mode and returns the whole result (error results too).
func toolCall(t *testing.T, tab *chromium.Tab, name, args string) map[string]any {
	t.Helper()
	resp := rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+name+`","arguments":`+args+`,"_meta":{"source":"local","mode":"direct"}}}`)
	res, _ := resp["result"].(map[string]any)
	if res == nil {
		t.Fatalf("%s: no result: %v", name, resp)
	}
	return res
}

// TestPreviewInfiniteLoopRecovers: a preview stuck in `while(true){}` times out, the status
// line says so, and a fixed app.js is acknowledged without reloading the page (the stuck
// frame is replaced by a fresh iframe element).
func TestPreviewInfiniteLoopRecovers(t *testing.T) {
	t.Parallel()
	// The looping frame in a process of its own, as desktop Chromium runs a sandboxed iframe
	// (chromium.Full; the headless shell runs it in the studio's process, which the loop
	// freezes as it would in a browser that does not isolate such frames).
	tab := openStudioIn(t, chromium.NewFullTab(t))
	ackedRevision(t, tab)
	src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"].(string)
	before, _ := chromium.Eval[bool](tab, 5*time.Second, `(window.__oldFrame = document.querySelector("#preview-host iframe")) !== null`)
	if !before {
		t.Fatal("no preview iframe")
	}
	res := toolCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":"while(true){}"}`)
	if res["isError"] != true || !strings.Contains(toJSON(res), "PREVIEW_ACK_TIMEOUT") {
		t.Fatalf("writing a looping app.js: want PREVIEW_ACK_TIMEOUT, got %v", toJSON(res))
	}
	waitContains(t, tab, "#preview-status", "timed out")
	if replaced, _ := chromium.Eval[bool](tab, 5*time.Second, `!window.__oldFrame.isConnected && document.querySelector("#preview-host iframe") !== window.__oldFrame`); !replaced {
		t.Error("the stuck iframe element was not replaced after the timeout")
	}
	// The tools say what the status line says: no answer will come (design.md §5.30).
	for _, name := range []string{"workspace.getStatus", "preview.getStatus"} {
		st := directCall(t, tab, name, `{}`)
		p := st
		if name == "workspace.getStatus" {
			p, _ = st["preview"].(map[string]any)
		}
		if p["status"] != "error" || !strings.Contains(fmt.Sprint(p["message"]), "did not acknowledge") {
			t.Errorf("%s after the timeout: preview %v, want status error saying it did not acknowledge", name, p)
		}
	}
	w := directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(src)+`}`)
	rev := int(w["revision"].(float64))
	waitContains(t, tab, "#preview-status", fmt.Sprintf("revision %d acknowledged", rev))
	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll("#preview-host iframe").length`); n != 1 {
		t.Errorf("%d preview iframes, want 1", n)
	}
}

// TestStatusToolsSayWhatTheFrameShows (design.md §5.30): an uncaught error of the page after
// its acknowledgement (a click handler that throws) shows in the status line, and
// workspace.getStatus and preview.getStatus say "error" with its message too; the next good
// revision is "synced" again.
func TestStatusToolsSayWhatTheFrameShows(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	ackedRevision(t, tab)
	src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"].(string)
	w := directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(src+"\ndocument.addEventListener(\"webcoding-test-throw\", function(){ throw new Error(\"late failure 42\"); });\n")+`}`)
	rev := int(w["revision"].(float64))
	if w["preview"] != "synced" {
		t.Fatalf("the write was acknowledged before the late error: %v", w)
	}
	waitContains(t, tab, "#preview-status", fmt.Sprintf("revision %d acknowledged", rev))
	// The page's own listener throws when the test dispatches its event (after the ack).
	if _, err := chromium.EvalInFrame[bool](tab, 5*time.Second, `document.dispatchEvent(new Event("webcoding-test-throw")), true`); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#preview-status", "late failure 42")
	for _, name := range []string{"workspace.getStatus", "preview.getStatus"} {
		st := directCall(t, tab, name, `{}`)
		p := st
		if name == "workspace.getStatus" {
			p, _ = st["preview"].(map[string]any)
		}
		if p["status"] != "error" || !strings.Contains(fmt.Sprint(p["message"]), "late failure 42") || int(p["revision"].(float64)) != rev {
			t.Errorf("%s after the late error: preview %v, want status error with the page's message at revision %d", name, p, rev)
		}
	}
	w = directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(src)+`}`)
	waitContains(t, tab, "#preview-status", fmt.Sprintf("revision %d acknowledged", int(w["revision"].(float64))))
	if p, _ := directCall(t, tab, "workspace.getStatus", `{}`)["preview"].(map[string]any); p["status"] != "synced" {
		t.Errorf("after a good revision: preview %v, want synced", p)
	}
}

// TestPreviewRefreshReplacesFrame: Refresh (preview.refresh) remounts in a fresh iframe
// element, so a stuck frame is never reused.
func TestPreviewRefreshReplacesFrame(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	ackedRevision(t, tab)
	chromium.Eval[bool](tab, 5*time.Second, `(window.__f1 = document.querySelector("#preview-host iframe")) !== null`)
	res := toolCall(t, tab, "preview.refresh", `{}`)
	if res["isError"] == true {
		t.Fatalf("preview.refresh: %v", toJSON(res))
	}
	waitContains(t, tab, "#preview-status", "acknowledged")
	if same, _ := chromium.Eval[bool](tab, 5*time.Second, `document.querySelector("#preview-host iframe") === window.__f1`); same {
		t.Error("Refresh reused the old iframe element")
	}
}

// TestPreviewNamesFallbackEntry: with index.html renamed away, the preview panel names the
// HTML file it renders instead (a warning in the diagnostics list), and the warning goes away
// once index.html is back.
func TestPreviewNamesFallbackEntry(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	ackedRevision(t, tab)
	directCall(t, tab, "workspace.createFile", `{"path":"x/other.html","source":""}`)
	directCall(t, tab, "workspace.renameFile", `{"fromPath":"index.html","toPath":"zz/page.html"}`)
	waitContains(t, tab, "#preview-diagnostics", "Previewing ")
	text, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#preview-diagnostics").textContent`)
	if !strings.Contains(text, "there is no index.html") || !(strings.Contains(text, "Previewing x/other.html") || strings.Contains(text, "Previewing zz/page.html")) {
		t.Errorf("diagnostics %q do not name the fallback entry", text)
	}
	directCall(t, tab, "workspace.renameFile", `{"fromPath":"zz/page.html","toPath":"index.html"}`)
	waitContains(t, tab, "#preview-status", "acknowledged")
	for i := 0; i < 50; i++ {
		text, _ = chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#preview-diagnostics").textContent`)
		if !strings.Contains(text, "Previewing ") {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("entry warning still shown with index.html back: %q", text)
}

// TestPreviewLongErrorWraps: a long unbroken runtime error message wraps inside the preview
// panel instead of overflowing it sideways.
func TestPreviewLongErrorWraps(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	ackedRevision(t, tab)
	src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"].(string)
	defer directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(src)+`}`)
	toolCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":"throw new Error('x'.repeat(400))"}`)
	waitContains(t, tab, "#preview-error", "xxxxxxxxxx")
	over, err := chromium.Eval[string](tab, 5*time.Second, `(() => {
  const p = document.querySelector("#preview-error .preview-alert p"), panel = document.querySelector("#preview-panel");
  return JSON.stringify({p: p.scrollWidth - p.clientWidth, panel: panel.scrollWidth - panel.clientWidth});
})()`)
	if err != nil {
		t.Fatal(err)
	}
	if over != `{"p":0,"panel":0}` {
		t.Errorf("the runtime error overflows sideways: %s (scrollWidth - clientWidth)", over)
	}
}

// TestPreviewNonceHidden: preview code that searches the DOM, document.scripts and window's
// globals for the mount nonce finds nothing (the bridge removed its element and keeps the
// nonce in a closure), and the ready it forges before throwing is ignored: the status shows
// the runtime error, not an acknowledgement.
func TestPreviewNonceHidden(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	ackedRevision(t, tab)
	src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"].(string)
	rev := int(directCall(t, tab, "workspace.getStatus", `{}`)["revision"].(float64))
	// The patterns are built at run time so that the searcher's own source (an inline script
	// in the same document) does not match them.
	searcher := fmt.Sprintf(`(function(){
  var me = document.currentScript, key = "NON" + "CE", found = [], hex = new RegExp("[0-9a-f]{" + (16 * 2) + "}");
  var html = document.documentElement.outerHTML.split(me ? me.textContent : "\u0000").join("");
  var m = html.match(new RegExp(key + "=|" + hex.source));
  if (m) found.push("dom:" + m[0]);
  for (var i = 0; i < document.scripts.length; i++) { var s = document.scripts[i]; if (s === me) continue; if (s.textContent.indexOf(key) >= 0 || s.hasAttribute("data-webcoding-" + "preview-bridge")) found.push("script:" + i); }
  var names = Object.getOwnPropertyNames(window);
  for (var j = 0; j < names.length; j++) { try { var v = window[names[j]]; if (typeof v === "string" && hex.test(v)) found.push("global:" + names[j]); } catch (e) {} }
  var nonce = ((html.match(new RegExp(key + '="([0-9a-f]+)"')) || [])[1]) || "";
  console.log("nonce-search " + JSON.stringify(found));
  window["top"].postMessage({type: "webcoding.preview.ready", revision: %d, nonce: nonce}, "*");
  throw new Error("failing after a forged ready");
})();
`, rev+1)
	defer directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(src)+`}`)
	res := toolCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(searcher)+`}`)
	got := int(directCall(t, tab, "workspace.getStatus", `{}`)["revision"].(float64))
	if got != rev+1 {
		t.Fatalf("revision %d after the write, want %d (%s)", got, rev+1, toJSON(res))
	}
	if !strings.Contains(toJSON(res), "PREVIEW_RUNTIME_ERROR") {
		t.Errorf("the write was acknowledged by the forged ready: want PREVIEW_RUNTIME_ERROR, got %s", toJSON(res))
	}
	waitContains(t, tab, "#preview-console", "nonce-search")
	cons, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#preview-console").textContent`)
	if !strings.Contains(cons, "nonce-search []") {
		t.Errorf("preview code found the nonce: %q", cons)
	}
	waitContains(t, tab, "#preview-status", fmt.Sprintf("revision %d error", rev+1))
	if st, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#preview-status").textContent`); strings.Contains(st, "acknowledged") {
		t.Errorf("forged ready accepted: %q", st)
	}
}
