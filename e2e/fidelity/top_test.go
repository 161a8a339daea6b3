package fidelity

// A page served on its own is its own top and parent: React's development build logs its
// DevTools hint only when `window.top === window.self` (TodoMVC's React app in
// scripts/realsites-more.txt differed by that one console line), frame-busting scripts test
// `top != self` and then navigate the top window, and embed checks compare `parent`. In the
// sandboxed frame `top` was the studio (docs/design.md §5.47). A local named top, a
// wrapper's own window parameter and coordinates named top stay as written.
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "top-level", want: "alone true", files: map[string]string{
		"index.html": `<!doctype html><title>t</title>` + probe + `<div id="box" style="position:absolute"></div><script>
log("alone " + (window.top === window.self) + " " + (self.top === window) + " " + (globalThis.top === self));
log("bare " + (top === self) + " parent " + (parent === window) + " " + (window.parent === self) + " frame " + window.frameElement);
if (top != self) { top.location = self.location; log("busted"); } else { log("not framed"); }
log("top href same " + (top.location.href === location.href) + " " + (top.location.pathname === location.pathname));
var box = document.getElementById("box"); box.style.top = "7px"; log("style " + box.style.top + " rect " + Math.round(box.getBoundingClientRect().top));
var o = { top: 3 }; log("field " + o.top);
(function (window) { log("param " + (window.top === 1)); })({ top: 1 });
</script><script src="local.js"></script>`,
		"local.js": `var top2 = 0; function f(top) { return top + 1 } log("local " + f(4)); try { window.parent = 5; log("replaced " + window.parent); } catch (e) { log("replace " + e.name) } log("done")`,
	}})
}
