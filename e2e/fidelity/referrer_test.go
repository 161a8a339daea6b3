package fidelity

// document.referrer (issue 13; docs/preview.md "Navigation"): "" for the page the user
// opened, the linking page's URL without its fragment after a link, the page's URL after a
// script navigation, the framing page's URL in a frame — as over HTTP. Before, every preview
// page read the studio's own address. URLs are shown relative to the site's root.
func init() {
	const rel = `<script>function rel(u){ var root = new URL("/", location.href).href, site = document.documentElement.getAttribute("data-root"); if (u === "") return "(none)"; var r = new URL(site, location.href).href; return u.indexOf(r) === 0 ? "site:" + u.slice(r.length) : "other:" + u.slice(0, 8); }</script>`
	fidelitySites = append(fidelitySites, fidelitySite{name: "referrer", want: "p3 ref site:sub/p2.html?x=1", steps: []string{`document.getElementById("go").click()`},
		files: map[string]string{
			"index.html":  `<!doctype html><html data-root="./"><title>r</title>` + probe + rel + `<script>sessionStorage.setItem("first", rel(document.referrer));</script><a id="go" href="sub/p2.html?x=1#h">go</a>`,
			"sub/p2.html": `<!doctype html><html data-root="../"><title>p2</title>` + probe + rel + `<script>sessionStorage.setItem("p2", rel(document.referrer)); setTimeout(function () { location.href = "p3.html"; }, 200);</script>`,
			"sub/p3.html": `<!doctype html><html data-root="../"><title>p3</title>` + probe + rel + `<script>
log("first " + sessionStorage.getItem("first"));
log("p2 ref " + sessionStorage.getItem("p2"));
log("p3 ref " + rel(document.referrer));
addEventListener("message", function (e) { if (e.data && e.data.frameRef !== undefined) { log("frame ref " + e.data.frameRef); log("done"); } });
</script><iframe src="f.html"></iframe>`,
			"sub/f.html": `<!doctype html><html data-root="../">` + rel + `<script>parent.postMessage({ frameRef: rel(document.referrer) }, "*");</script>`,
		}})
}
