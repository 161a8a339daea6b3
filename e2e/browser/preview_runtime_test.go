package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// TestPreviewRuntimeInStudio (issue 13 items 7 and 9, through the real studio): a page that
// fetches a loopback URL gets a blocked report in preview.getStatus and the Preview panel; a
// page that floods the console stays bounded and is acknowledged; a page that navigates away
// after its acknowledgement shows "navigated away (Refresh)" and preview.getStatus says error.
func TestPreviewRuntimeInStudio(t *testing.T) {
	t.Parallel()
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
	flood := `for (var i = 0; i < 100000; i++) { console.log('flood ' + i); window['top'].postMessage({type: 'webcoding.preview.console', text: 'junk'}, '*'); }`
	start := time.Now()
	res = toolCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(flood)+`}`)
	t.Logf("flood write answered in %v (%v); longest studio task %v ms", time.Since(start), res["isError"], evalNum(tab, `window.__lt`))
	if strings.Contains(toJSON(res), "junk") {
		t.Fatal("a window message reached the studio")
	}
	if n := evalNum(tab, `document.querySelectorAll("#preview-console li, #preview-console .console-line").length`); n > 200 {
		t.Errorf("%v console rows", n)
	}

	// Navigating away after the acknowledgement: the status says so, preview.getStatus too.
	rev := int(directCall(t, tab, "workspace.getStatus", `{}`)["revision"].(float64))
	res = toolCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":"window.addEventListener('load', function(){ setTimeout(function(){ location.href = 'about:blank'; }, 300); });"}`)
	if strings.Contains(toJSON(res), "navigated away") {
		t.Fatalf("the write saw the later navigation: %s", toJSON(res))
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

// TestPreviewPagesAndOptions (issue 13 items 2, 4, 5, through the real studio): a link in the
// preview to another workspace page mounts it (status names it, Back returns to the entry);
// localStorage written by the page survives an edit; "Clear preview storage" empties it; the
// "Allow internet in preview" switch is off by default, and on adds https: to the policy.
func TestPreviewPagesAndOptions(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	ackedRevision(t, tab)
	if on, _ := chromium.Eval[bool](tab, 5*time.Second, `document.getElementById("preview-internet").checked`); on {
		t.Fatal("Allow internet is on by default")
	}
	page := `<!doctype html><title>about</title><p id="who">About page</p>`
	directCall(t, tab, "workspace.createFile", `{"path":"about.html","source":`+jsString(page)+`}`)
	defer directCall(t, tab, "workspace.deleteFile", `{"path":"about.html"}`)
	src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"].(string)
	defer directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(src)+`}`)
	app := `var n = Number(localStorage.getItem("visits") || 0) + 1; localStorage.setItem("visits", String(n));
var a = document.createElement("a"); a.id = "about-link"; a.href = "about.html#x"; a.textContent = "visits " + n; document.body.appendChild(a);`
	directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(app)+`}`)
	if _, err := chromium.WaitInFrame[string](tab, 10*time.Second, `(document.getElementById("about-link")||{}).textContent||""`, "visits 1"); err != nil {
		t.Fatal(err)
	}
	// Storage changes are sent every 500 ms (preview.StorageFlushInterval); 700 ms was once too
	// little on a loaded machine (the frame's timer ran late, the edit's remount came first).
	// Nothing outside the frame shows the flush yet, so the wait has four intervals of margin.
	time.Sleep(2 * time.Second)
	directCall(t, tab, "workspace.writeFile", `{"path":"README.md","source":"edited"}`)
	if _, err := chromium.WaitInFrame[string](tab, 10*time.Second, `(document.getElementById("about-link")||{}).textContent||""`, "visits 2"); err != nil {
		t.Fatalf("storage did not survive an edit: %v", err)
	}
	if _, err := chromium.EvalInFrame[bool](tab, 5*time.Second, `document.getElementById("about-link").click(), true`); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#preview-status", "about.html#x")
	if _, err := chromium.WaitInFrame[string](tab, 10*time.Second, `(document.getElementById("who")||{}).textContent||""`, "About page"); err != nil {
		t.Fatal(err)
	}
	// A page reached by a link while index.html exists is no entry fallback: no "there is no
	// index.html" diagnostic (a new user's finding).
	if d, _ := chromium.Eval[string](tab, 5*time.Second, `document.getElementById("preview-diagnostics").textContent`); strings.Contains(d, "there is no index.html") {
		t.Fatalf("linked page diagnosed as an entry fallback: %q", d)
	}
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS(`#preview-back`))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitInFrame[bool](tab, 10*time.Second, `!!document.getElementById("about-link")`, true); err != nil {
		t.Fatalf("Back did not return to the entry: %v", err)
	}
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS(`[data-action="clear-preview-storage"]`))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitInFrame[string](tab, 10*time.Second, `(document.getElementById("about-link")||{}).textContent||""`, "visits 1"); err != nil {
		t.Fatalf("after Clear preview storage: %v", err)
	}
	if err := tab.Do(5*time.Second, chromedp.Click(chromedp.CSS(`#preview-internet`))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitInFrame[bool](tab, 10*time.Second, `document.querySelector('meta[http-equiv="Content-Security-Policy"]').content.indexOf("connect-src blob: data: https:") >= 0`, true); err != nil {
		t.Fatalf("the switch did not allow https: %v", err)
	}
}

// TestPreviewConsoleNamesFileAndLine (issue 17): a console.log on line 6 and a throw on line 7
// of app.js come back from preview.getConsole (through webcodingHandle tools/call) naming
// app.js and those lines — the file's own lines, not about:srcdoc positions — at the current
// revision only; preview.inspect answers in the browser too, from the live page (computed true).
func TestPreviewConsoleNamesFileAndLine(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	ackedRevision(t, tab)
	src := directCall(t, tab, "workspace.readFile", `{"path":"app.js"}`)["source"].(string)
	defer directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(src)+`}`)

	app := "// 1\n// 2\n// 3\n// 4\n// 5\nconsole.log(\"hello from app\");\nthrow new Error(\"boom on seven\");\n"
	res := toolCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":`+jsString(app)+`}`)
	if !strings.Contains(toJSON(res), "PREVIEW_RUNTIME_ERROR") {
		t.Fatalf("the write should report the runtime error: %s", toJSON(res))
	}
	rev := directCall(t, tab, "workspace.getStatus", `{}`)["revision"].(float64)
	var out map[string]any
	var log, boom map[string]any
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) && (log == nil || boom == nil) {
		out = directCall(t, tab, "preview.getConsole", `{}`)
		for _, e := range out["entries"].([]any) {
			e := e.(map[string]any)
			switch {
			case strings.Contains(fmt.Sprint(e["text"]), "hello from app"):
				log = e
			case strings.Contains(fmt.Sprint(e["text"]), "boom on seven"):
				boom = e
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	if out["runtime"] != true || out["revision"] != rev || log == nil || boom == nil {
		t.Fatalf("preview.getConsole: %s", toJSON(out))
	}
	if log["level"] != "log" || log["kind"] != "console" || log["path"] != "app.js" || log["line"] != float64(6) {
		t.Errorf("console.log entry: %s", toJSON(log))
	}
	if boom["level"] != "error" || boom["kind"] != "error" || boom["path"] != "app.js" || boom["line"] != float64(7) ||
		boom["revision"] != rev || boom["sequence"].(float64) <= log["sequence"].(float64) {
		t.Errorf("error entry: %s", toJSON(boom))
	}
	errs := directCall(t, tab, "preview.getConsole", `{"levels":["error"],"sinceSequence":`+fmt.Sprint(log["sequence"])+`}`)
	if n := len(errs["entries"].([]any)); n != 1 {
		t.Errorf("levels/sinceSequence: %s", toJSON(errs))
	}

	// The next revision shows none of this revision's entries.
	directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":"document.title = 'quiet';"}`)
	if after := directCall(t, tab, "preview.getConsole", `{}`); after["revision"] == rev || len(after["entries"].([]any)) != 0 {
		t.Errorf("after the next revision: %s", toJSON(after))
	}
	in := directCall(t, tab, "preview.inspect", `{"selector":"#hero-title"}`)
	if in["computed"] != true || in["tag"] != "h1" || in["selector"] != "#hero-title" || in["box"] == nil {
		t.Errorf("preview.inspect in the browser (live, issue 17): %s", toJSON(in))
	}
}

// TestPreviewConsoleInlineScriptLines (new-user test of issue 17): the log and error of a
// classic inline script and the warning and rejection of an inline module script name
// index.html and their line in it (22, 23, 26, 27), not the line inside the script or none.
func TestPreviewConsoleInlineScriptLines(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	ackedRevision(t, tab)
	src := directCall(t, tab, "workspace.readFile", `{"path":"index.html"}`)["source"].(string)
	defer directCall(t, tab, "workspace.writeFile", `{"path":"index.html","source":`+jsString(src)+`}`)

	var page strings.Builder
	page.WriteString("<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>inline</title></head>\n<body>\n")
	for i := 5; i <= 20; i++ {
		page.WriteString("<p>line " + fmt.Sprint(i) + "</p>\n")
	}
	page.WriteString("<script>\nconsole.log(\"inline log\");\ninlineMissing();\n</script>\n" +
		"<script type=\"module\">\nconsole.warn(\"mod warn\");\nPromise.reject(new Error(\"rej\"));\n</script>\n</body>\n</html>\n")
	toolCall(t, tab, "workspace.writeFile", `{"path":"index.html","source":`+jsString(page.String())+`}`)
	want := map[string]float64{"inline log": 22, "inlineMissing": 23, "mod warn": 26, "rej": 27}
	got := map[string]map[string]any{}
	var out map[string]any
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) && len(got) < len(want) {
		out = directCall(t, tab, "preview.getConsole", `{}`)
		for _, e := range out["entries"].([]any) {
			e := e.(map[string]any)
			for k := range want {
				if strings.Contains(fmt.Sprint(e["text"]), k) {
					got[k] = e
				}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	for k, line := range want {
		e := got[k]
		if e == nil {
			t.Errorf("%s: no entry in %s", k, toJSON(out))
			continue
		}
		if e["path"] != "index.html" || e["line"] != line {
			t.Errorf("%s: want index.html:%v, got %s", k, line, toJSON(e))
		}
	}
}

// TestPreviewInspectAfterAHandledError (new-user test of issue 17): a click handler that throws
// after the page was ready puts the preview in the error state, yet the page still runs, so
// preview.inspect answers from it (computed true) rather than saying it is not running.
func TestPreviewInspectAfterAHandledError(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	ackedRevision(t, tab)
	src := directCall(t, tab, "workspace.readFile", `{"path":"index.html"}`)["source"].(string)
	defer directCall(t, tab, "workspace.writeFile", `{"path":"index.html","source":`+jsString(src)+`}`)
	page := "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>t</title></head><body>\n" +
		"<h1 id=\"head\">Hi</h1><button id=\"b\">go</button>\n" +
		"<script>document.getElementById(\"b\").addEventListener(\"click\", () => { throw new Error(\"clicked\"); });</script>\n</body></html>\n"
	toolCall(t, tab, "workspace.writeFile", `{"path":"index.html","source":`+jsString(page)+`}`)
	if _, err := chromium.WaitInFrame[bool](tab, 10*time.Second, `!!document.getElementById("b")`, true); err != nil {
		t.Fatal(err)
	}
	if before := directCall(t, tab, "preview.inspect", `{"selector":"#head"}`); before["computed"] != true {
		t.Fatalf("before the click: %s", toJSON(before))
	}
	if _, err := chromium.EvalInFrame[bool](tab, 5*time.Second, `(document.getElementById("b").click(), true)`); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#preview-error", "clicked")
	in := directCall(t, tab, "preview.inspect", `{"selector":"#head"}`)
	if in["computed"] != true || in["tag"] != "h1" || in["box"] == nil {
		t.Errorf("preview.inspect after a handled runtime error: %s", toJSON(in))
	}
}
