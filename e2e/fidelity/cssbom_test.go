package fidelity

// A stylesheet file that starts with a UTF-8 byte order mark (issue 13): over HTTP the BOM is
// taken off when the file is decoded, so its first rule applies; inlined as the text of a
// <style> it was a character of the first selector ("\uFEFF body" matches nothing), and the
// rule was dropped. chroma.js's docs (src/index.css: a BOM, an external @import, then the body's
// font) were laid out in another font in the preview (e2e/realsites, scripts/realsites-fifth.txt:
// height). A BOM inside an inline <style> is text in both runs (the rule after it is dropped).
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "css-bom", want: "body 77px", files: map[string]string{
		"index.html": `<!doctype html><html><head>` + probe + `
<link rel="stylesheet" href="a.css"><link rel="stylesheet" href="c.css">
<style>` + "\ufeff" + `#z { margin-left: 5px }</style>
</head><body><div id="x"></div><div id="y"></div><div id="z"></div><script>
function cs(id, p) { return getComputedStyle(document.getElementById(id))[p]; }
log("body " + getComputedStyle(document.body).marginTop);
log("imported " + cs("x", "marginLeft") + " after " + cs("y", "marginLeft") + " inline " + cs("z", "marginLeft"));
log("done");
</script></body></html>`,
		"a.css": "\ufeff@import 'https://fonts.example.invalid/css?family=X';\nbody { margin-top: 77px }\n",
		"c.css": "\ufeff@import 'b.css';\n#y { margin-left: 9px }\n",
		"b.css": "\ufeff#x { margin-left: 3px }\n",
	}})
	// The same for a stylesheet a script swaps in (a theme switch: link.href = "dark.css"),
	// which the runtime writes into the compiled <style>.
	fidelitySites = append(fidelitySites, fidelitySite{name: "css-bom-swap", want: "swapped 44px", steps: []string{"swap()"}, files: map[string]string{
		"index.html": `<!doctype html><html><head>` + probe + `
<link id="t" rel="stylesheet" href="light.css">
</head><body><script>
log("light " + getComputedStyle(document.body).marginTop);
function swap() {
  var l = document.getElementById("t");
  l.onload = function () { log("swapped " + getComputedStyle(document.body).marginTop); log("done"); };
  l.href = "dark.css";
}
</script></body></html>`,
		"light.css": "body { margin-top: 11px }\n",
		"dark.css":  "\ufeffbody { margin-top: 44px }\n",
	}})
}
