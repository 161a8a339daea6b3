package fidelity

// A site opened at its folder's URL (http://host/ — how a site is served and how the studio
// shows its entry) reads that URL, not ".../index.html": location, document.URL, an <a
// href="./">'s href and the folder's last path segment ("") match over HTTP and in the preview,
// which nav-highlighting scripts compare (found on 2026-12-07 with a probe page next to
// scripts/realsites-third.txt). A link to "index.html?x=1" then reads ".../index.html", and one
// to "./?y=2" the folder URL again. Each page appends its lines to sessionStorage, so the last
// page shows all three.
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "folder-url", want: "?y=2 seg=[]", files: map[string]string{
		"index.html": `<!doctype html><title>f</title>` + probe + `
<a id="dir" href="./">home</a> <a id="file" href="index.html">index</a> <a id="x" href="index.html?x=1">x</a> <a id="y" href="./?y=2">y</a>
<script>
var lines = JSON.parse(sessionStorage.getItem("lines") || "[]");
var seg = location.pathname.split("/").pop();
lines.push((location.search || "first") + " seg=[" + seg + "] self=" + (document.getElementById("dir").href === location.href) +
  " file=" + (document.getElementById("file").href === location.href) + " url=" + (document.URL === location.href) + " base=" + (document.baseURI === location.href));
sessionStorage.setItem("lines", JSON.stringify(lines));
lines.forEach(log);
window.addEventListener("load", function () {
  setTimeout(function () {
    if (!location.search) document.getElementById("x").click();
    else if (location.search === "?x=1") document.getElementById("y").click();
    else log("done");
  }, 50);
});
</script>`,
	}})
}
