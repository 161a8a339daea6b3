package fidelity

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
