package fidelity

// A <meta http-equiv="refresh"> redirect (a docs package's index.html pointing at its docs, a
// moved page) opens its target after the page loaded, as over HTTP: in the preview the
// sandboxed frame never follows it itself (found on 2026-12-07 next to
// scripts/realsites-third.txt: the preview stayed on "Redirecting…"). The target reads the
// query and fragment the content's URL gives, the redirecting page's script ran, and its load
// event came first.
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "meta-refresh", want: "docs search=?from=meta hash=#top", files: map[string]string{
		"index.html": `<!doctype html><html><head><meta http-equiv="Refresh" content="0; URL='docs/page.html?from=meta#top'"><title>moved</title>` + probe + `
<script>sessionStorage.setItem("seen", "index ran"); addEventListener("load", function () { sessionStorage.setItem("seen", sessionStorage.getItem("seen") + ", index loaded"); });</script>
</head><body><p>Redirecting to <a href="docs/page.html">the docs</a></p></body></html>`,
		"docs/page.html": `<!doctype html><title>docs</title>` + probe + `<script>
log("docs search=" + location.search + " hash=" + location.hash + " page=" + location.pathname.split("/").slice(-2).join("/"));
log("before: " + sessionStorage.getItem("seen"));
var root = new URL("../", location.href).href;
log("referrer " + (document.referrer === "" ? "(none)" : document.referrer.indexOf(root) === 0 ? "site:" + document.referrer.slice(root.length) : "other"));
log("done");
</script>`,
	}})
}
