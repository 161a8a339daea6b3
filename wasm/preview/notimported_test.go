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

// TestExcludedPathReferences (docs/design.md §5.51): a reference to a path the workspace can
// never hold — inside a hidden folder (dygraphs' site keeps jQuery in .jslibs/), a hidden
// file, node_modules — gets a not-imported-reference diagnostic that says so (ExcludedMessage),
// never "Missing", for a script, a stylesheet, an asset and a module import (whose
// placeholder throws the same text); a reference to an ordinary absent path stays missing,
// and the runtime gets the rule's words.
func TestExcludedPathReferences(t *testing.T) {
	files := []File{{Path: "index.html", Language: LangHTML, Kind: KindText, Source: `<script src=".jslibs/jquery.js"></script>` +
		`<link rel="stylesheet" href="node_modules/pkg/a.css"><img src="img/.hidden.png"><img src="gone.png">` +
		`<script type="module">import x from "./node_modules/m/index.js";</script>`}}
	res := Compile(files, Options{Revision: 1, Nonce: "n", Bridge: true})
	want := map[string]string{
		".jslibs/jquery.js":         "Script .jslibs/jquery.js: .jslibs/jquery.js is not in the workspace: " + ExcludedReason,
		"node_modules/pkg/a.css":    "Stylesheet node_modules/pkg/a.css: node_modules/pkg/a.css is not in the workspace: " + ExcludedReason,
		"img/.hidden.png":           "Asset img/.hidden.png: img/.hidden.png is not in the workspace: " + ExcludedReason,
		"./node_modules/m/index.js": "Module import ./node_modules/m/index.js: node_modules/m/index.js is not in the workspace: " + ExcludedReason,
		"gone.png":                  "Missing asset: gone.png",
	}
	if len(res.Diagnostics) != len(want) {
		t.Fatalf("diagnostics %+v", res.Diagnostics)
	}
	for _, d := range res.Diagnostics {
		wantKind := DiagNotImported
		if d.RequestedPath == "gone.png" {
			wantKind = DiagMissingReference
		}
		if d.Kind != wantKind || d.Message != want[d.RequestedPath] {
			t.Errorf("diagnostic %+v, want kind %s message %q", d, wantKind, want[d.RequestedPath])
		}
	}
	placeholder := "data:text/javascript," + encodeURIComponent(`throw new Error(`+jsonString(want["./node_modules/m/index.js"])+`);var _;export{_ as "default"};`)
	if !strings.Contains(res.HTML, placeholder) {
		t.Errorf("module placeholder %q not in the document", placeholder)
	}
	if !strings.Contains(runtimeMin, ExcludedReason) {
		t.Errorf("the runtime's report for an excluded path does not say ExcludedReason")
	}
	for p, ex := range map[string]bool{".env": true, "a/.b/c.js": true, "node_modules": true, "x/node_modules/y.js": true,
		"a.js": false, "a..b/c.md": false, "node_modules_x/a.js": false, "b/x.node_modules": false} {
		if ExcludedPath(p) != ex {
			t.Errorf("ExcludedPath(%q) = %v, want %v", p, !ex, ex)
		}
	}
}
