package fidelity

// A relative reference written with backslashes (issue 13): the URL parser reads "\" as "/"
// in the path of an http(s) URL, so `src="assets\img\a.png"` loads assets/img/a.png over HTTP.
// The compiler resolved it as one file name with backslashes, found no file, and the image
// was broken in the preview (e2e/realsites, scripts/realsites-fifth.txt: Paper Kit's team
// photos). A backslash in the query, or escaped as %5C, is no separator.
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "backslash-path", want: "img 4", files: map[string]string{
		"index.html": `<!doctype html><html><head>` + probe + `
<link rel="stylesheet" href="css\s.css"><script src="js\a.js"></script>
</head><body><div id="x"></div>
<img id="i" src="img\a.png" alt=""><img id="j" src=".\img\..\img\a.png?q=\x" alt="">
<script>
window.addEventListener("load", function () {
  log("img " + document.getElementById("i").naturalWidth + " " + document.getElementById("j").naturalWidth);
  log("css " + getComputedStyle(document.getElementById("x")).marginLeft + " js " + window.A);
  log("done");
});
</script></body></html>`,
		"css/s.css": `#x { margin-left: 6px }`,
		"js/a.js":   `window.A = "a";`,
		"img/a.png": pngBytes(4, 4),
	}})
}
