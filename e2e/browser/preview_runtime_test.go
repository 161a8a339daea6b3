package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
)

// TestPreviewRuntimeInStudio (issue 13 items 7 and 9, through the real studio): a page that
// fetches a loopback URL gets a blocked report in preview.getStatus and the Preview panel; a
// page that floods the console stays bounded and is acknowledged; a page that navigates away
// while loading is never acknowledged (PREVIEW_RUNTIME_ERROR, "navigated away (Refresh)",
// preview.getStatus status error).
func TestPreviewRuntimeInStudio(t *testing.T) {
	tab := openStudio(t)
	ackedRevision(t, tab)
	src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"].(string)
	defer directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(src)+`}`)

	// Blocked request, reported to the model and the user.
	res := toolCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":"fetch('http://127.0.0.1:9/secret').catch(function(){ console.log('fetch refused'); });"}`)
	if res["isError"] == true {
		t.Fatalf("write: %s", toJSON(res))
	}
	waitContains(t, tab, "#preview-diagnostics", "http://127.0.0.1:9/secret")
	st := directCall(t, tab, "preview.getStatus", `{}`)
	if !strings.Contains(toJSON(st["runtimeReports"]), `"kind":"blocked"`) || !strings.Contains(toJSON(st["runtimeReports"]), "127.0.0.1:9/secret") {
		t.Fatalf("preview.getStatus runtimeReports: %s", toJSON(st))
	}

	// Flood: 10^5 console lines and window messages; the write is acknowledged, 100 lines kept.
	_, _ = chromium.Eval[bool](tab, 5*time.Second, `(function(){ window.__lt = 0; try { new PerformanceObserver(function(l){ l.getEntries().forEach(function(e){ window.__lt = Math.max(window.__lt, e.duration); }); }).observe({type: "longtask"}); } catch (e) {} return true; })()`)
	flood := `for (var i = 0; i < 100000; i++) { console.log('flood ' + i); top.postMessage({type: 'webcoding.preview.console', text: 'junk'}, '*'); }`
	start := time.Now()
	res = toolCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(flood)+`}`)
	t.Logf("flood write answered in %v (%v); longest studio task %v ms", time.Since(start), res["isError"], evalNum(tab, `window.__lt`))
	if strings.Contains(toJSON(res), "junk") {
		t.Fatal("a window message reached the studio")
	}
	if n := evalNum(tab, `document.querySelectorAll("#preview-console li, #preview-console .console-line").length`); n > 200 {
		t.Errorf("%v console rows", n)
	}

	// Navigating away while loading: never acknowledged.
	rev := int(directCall(t, tab, "workspace.getStatus", `{}`)["revision"].(float64))
	res = toolCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":"location.href = 'about:blank';"}`)
	if res["isError"] != true || !strings.Contains(toJSON(res), "PREVIEW_RUNTIME_ERROR") || !strings.Contains(toJSON(res), "navigated away") {
		t.Fatalf("navigating away was acknowledged: %s", toJSON(res))
	}
	waitContains(t, tab, "#preview-status", fmt.Sprintf("revision %d navigated away (Refresh)", rev+1))
	if st := directCall(t, tab, "preview.getStatus", `{}`); st["status"] != "error" || !strings.Contains(fmt.Sprint(st["message"]), "navigated away") {
		t.Errorf("preview.getStatus after navigating away: %s", toJSON(st))
	}
}

func evalNum(tab *chromium.Tab, expr string) float64 {
	v, _ := chromium.Eval[float64](tab, 5*time.Second, expr)
	return v
}
