package preview

import (
	"strings"
	"testing"
)

// TestNotImportedReferences: a reference to a folder file the import left out (KindNotImported)
// gets a not-imported-reference diagnostic naming the reason — never "Missing" — for every
// kind of reference; a module import of one gets a placeholder that throws that text; the
// runtime is handed the reason and no file body; a workspace file at the same path wins.
func TestNotImportedReferences(t *testing.T) {
	const why = "larger than 2 MB (the import limit for text files)"
	files := []File{
		{Path: "index.html", Language: LangHTML, Kind: KindText, Source: `<link rel="stylesheet" href="big.css"><script src="big.js"></script><img src="blob"><script type="module">import data from "./data/big.js";</script><img src="here.png">`},
		{Path: "here.png", Kind: KindAsset, Data: []byte("png")},
		{Path: "big.css", Kind: KindNotImported, Reason: why},
		{Path: "big.js", Kind: KindNotImported, Reason: why},
		{Path: "blob", Kind: KindNotImported, Reason: "it is not text"},
		{Path: "data/big.js", Kind: KindNotImported, Reason: why},
		{Path: "here.png", Kind: KindNotImported, Reason: why},
	}
	res := Compile(files, Options{Revision: 3, Nonce: "n", Bridge: true})
	want := map[string]string{
		"big.css":       "Stylesheet big.css: big.css is in the folder but was not imported: " + why,
		"big.js":        "Script big.js: big.js is in the folder but was not imported: " + why,
		"blob":          "Asset blob: blob is in the folder but was not imported: it is not text",
		"./data/big.js": "Module import ./data/big.js: data/big.js is in the folder but was not imported: " + why,
	}
	if len(res.Diagnostics) != len(want) {
		t.Fatalf("diagnostics %+v", res.Diagnostics)
	}
	for _, d := range res.Diagnostics {
		if d.Kind != DiagNotImported || want[d.RequestedPath] != d.Message || strings.Contains(d.Message, "Missing") {
			t.Errorf("diagnostic %+v, want kind %s message %q", d, DiagNotImported, want[d.RequestedPath])
		}
	}
	if got := Diagnose(files); len(got) != len(want) || got[0].Kind != DiagNotImported {
		t.Errorf("Diagnose = %+v", got)
	}
	// The module placeholder throws the same text .
	placeholder := "data:text/javascript," + encodeURIComponent(`throw new Error(`+jsonString(want["./data/big.js"])+`);var _;export{_ as "default"};`)
	if !strings.Contains(res.HTML, placeholder) {
		t.Errorf("module placeholder %q not in the document", placeholder)
	}
	// The runtime gets the reasons (not the workspace file that exists) and no bodies.
	if !strings.Contains(res.HTML, `"notImported":{"big.css":"`+why+`","big.js":"`) || strings.Contains(res.HTML, `"here.png":"larger`) {
		t.Errorf("runtime config lacks notImported or lists an existing file")
	}
}

// TestBlockedModuleImportNamesURL: a module import of another site's URL is replaced by a
// data: module that exports the names the statement imports (so it links) and throws an error
// naming the URL and the network policy when evaluated.
func TestBlockedModuleImportNamesURL(t *testing.T) {
	files := []File{{Path: "index.html", Language: LangHTML, Kind: KindText,
		Source: `<script type="module">import confetti, {a, "b-c" as d} from "https://cdn.example/lib.js"; export {e} from "https://cdn.example/e.js";</script>`}}
	res := Compile(files, Options{Revision: 1, Nonce: "n", Bridge: true})
	for _, c := range []struct{ url, exports string }{
		{"https://cdn.example/lib.js", `var _;export{_ as "default",_ as "a",_ as "b-c"};`},
		{"https://cdn.example/e.js", `var _;export{_ as "e"};`},
	} {
		want := "data:text/javascript," + encodeURIComponent(`throw new Error(`+jsonString(BlockedModuleMessage(c.url))+`);`+c.exports)
		if !strings.Contains(res.HTML, want) {
			t.Errorf("no placeholder %q", want)
		}
	}
	if m := BlockedModuleMessage("https://cdn.example/lib.js"); !strings.Contains(m, "https://cdn.example/lib.js") || !strings.Contains(m, "blocked by the preview's network policy") {
		t.Errorf("message %q", m)
	}
}
