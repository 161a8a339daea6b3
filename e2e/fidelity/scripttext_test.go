package fidelity

import (
	"strings"
	"testing"
	"time"
)

// An inline script's text as written (issue 13; docs/design.md §5.50): documentation that
// shows its live demo <script>s inside <pre><code> and highlights them from the code's
// textContent (Awesomplete's docs with Prism), a page that reads a script's text, innerHTML
// around a script, and a script inserted by document.write — identical served and in the
// preview. Before, the preview's text carried the padding newlines and a sourceURL comment.
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "script-text", want: `code "var a = 1;"`, files: map[string]string{
		"index.html": `<!doctype html><html><head>` + probe + `
<script id="h">var inHead = 1;</script>
</head><body>
<pre><code id="c"><script>var a = 1;</script></code></pre>
<div id="d"><script>
  var b = 2;
</script></div>
<script>document.write("<script id=w>var w = 3;<\/script>");</script>
<script>
log("code " + JSON.stringify(document.getElementById("c").textContent));
log("div " + JSON.stringify(document.getElementById("d").innerHTML));
log("head " + JSON.stringify(document.getElementById("h").text));
</script>
<script>
document.addEventListener("DOMContentLoaded", function () {
  log("written " + JSON.stringify(document.getElementById("w").textContent));
  var all = document.querySelectorAll("script"), n = 0;
  for (var i = 0; i < all.length; i++) if (all[i].textContent.indexOf("sourceURL") >= 0 || /^\n\n/.test(all[i].textContent)) n++;
  log("padded " + n);
  log("done");
});
</script>
</body></html>`,
	}})
}

// A script inside a <template> (docs/design.md §5.50): the template's innerHTML, and a clone
// of its content inserted into the page (the script runs on insertion, before any observer),
// read the script as written, at once. Before, the compiler padded and marked it like a
// page script: the template's markup showed the marker attribute, the padding and the
// sourceURL, and the inserted clone carried both until a later mutation.
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "script-text-template", want: `tpl "<p>x</p><script>window.ran`, files: map[string]string{
		"index.html": `<!doctype html><html><head>` + probe + `</head><body>
<template id="t"><p>x</p><script>window.ran = (window.ran || 0) + 1;</script><template><script>var deeper = 1;</script></template></template>
<script>
var t = document.getElementById("t");
log("tpl " + JSON.stringify(t.innerHTML));
document.body.appendChild(document.importNode(t.content, true));
var ss = document.querySelectorAll("body > script");
log("ran " + window.ran + " text " + JSON.stringify(ss[ss.length - 1].textContent) + " attrs " + ss[ss.length - 1].attributes.length);
</script>
<script>
log("done");
</script>
</body></html>`,
	}})
}

// TestInlineScriptErrorLines: an uncaught error in an inline script after others names the
// page and its line (docs/design.md §5.13) while texts are restored (§5.50). Before, the
// observer's own restore of the earlier scripts' texts queued a second callback in the same
// microtask checkpoint, which restored the script about to run: it ran without its padding and
// sourceURL, and its error named no file (path "", line 0), in the page and in a nested one.
func TestInlineScriptErrorLines(t *testing.T) {
	page := "<!doctype html><script>\nvar x = 1;\n</script><script>\nundefinedThing.boom();\n</script>"
	for _, c := range []struct {
		name, path string
		files      map[string]string
	}{
		{"errline-top", "index.html", map[string]string{"index.html": page}},
		{"errline-nested", "bad.html", map[string]string{"index.html": `<!doctype html><iframe src="bad.html"></iframe>`, "bad.html": page}},
	} {
		addSite(c.name, c.files)
		tab := openParent(t)
		mount(t, tab, c.name, 1, "n-"+c.name, "")
		waitAck(t, tab, 1)
		time.Sleep(300 * time.Millisecond)
		found := false
		for _, m := range messages(t, tab) {
			if m.Type == "webcoding.preview.console" && m.Kind == "error" && strings.Contains(m.Text, "undefinedThing") {
				found = true
				if m.Path != c.path || m.Line != 4 {
					t.Errorf("%s: error entry names %q line %d, want %s line 4", c.name, m.Path, m.Line, c.path)
				}
			}
		}
		if !found {
			t.Errorf("%s: no error entry: %v", c.name, messages(t, tab))
		}
	}
}
