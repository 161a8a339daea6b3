package preview

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestPageImportMap: the page's import map is merged into the one emitted map — a bare
// specifier it maps to a workspace file is followed (no "bare specifier" diagnostic), an
// external target is kept and reported as blocked, and the page's own element is removed.
func TestPageImportMap(t *testing.T) {
	files := []File{
		htmlFile("index.html", `<!doctype html><script type="importmap">{"imports":{"util":"./lib/util.js","ui/":"./lib/ui/","react":"https://esm.sh/react"}}</script>`+
			`<script type="module">import {u} from "util"; import b from "ui/button.js"; import React from "react";</script>`),
		js("lib/util.js", `export const u = 1;`),
		js("lib/ui/button.js", `export default 2;`),
	}
	r := Compile(files, bridgeOpts)
	if strings.Count(r.HTML, `type="importmap"`) != 1 {
		t.Errorf("want exactly one import map:\n%s", r.HTML)
	}
	for _, want := range []string{`"react":"https://esm.sh/react"`, `"https://workspace.invalid/lib/util.js":"data:`, `"https://workspace.invalid/lib/ui/button.js":"data:`,
		`import {u} from "https://workspace.invalid/lib/util.js"`, `import b from "https://workspace.invalid/lib/ui/button.js"`, `import React from "react"`} {
		if !strings.Contains(r.HTML, want) {
			t.Errorf("output lacks %s", want)
		}
	}
	if len(r.Diagnostics) != 1 || r.Diagnostics[0].Kind != DiagBlockedExternal || r.Diagnostics[0].RequestedPath != "https://esm.sh/react" {
		t.Errorf("diagnostics = %+v, want only the blocked external react", r.Diagnostics)
	}
}

// TestPageImportMapScopes: the page's "scopes" apply to the modules they name (a prefix ending
// in "/" or one module's URL), most specific first, before "imports"; a scope's external
// target is written into the module (HTML "resolve a module specifier").
func TestPageImportMapScopes(t *testing.T) {
	files := []File{
		htmlFile("index.html", `<!doctype html><script type="importmap">{"imports":{"util":"./lib/util.js"},`+
			`"scopes":{"/vendor/":{"util":"./vendor/util2.js","cdn":"https://cdn.example/x.js"},"./vendor/deep/":{"util":"./vendor/deep/u3.js"},"/vendor/one.js":{"util":"./lib/one-util.js"}}}</script>`+
			`<script type="module">import {u} from "util"; import "./vendor/a.js"; import "./vendor/deep/b.js"; import "./vendor/one.js";</script>`),
		js("lib/util.js", `export const u = 1;`),
		js("lib/one-util.js", `export const u = 4;`),
		js("vendor/util2.js", `export const u = 2;`),
		js("vendor/deep/u3.js", `export const u = 3;`),
		js("vendor/a.js", `import {u} from "util"; import c from "cdn"; export default u;`),
		js("vendor/deep/b.js", `import {u} from "util"; export default u;`),
		js("vendor/one.js", `import {u} from "util"; export default u;`),
	}
	r := Compile(files, bridgeOpts)
	// Each module's "util" names a different file: one data: module each, keyed by its URL.
	for _, want := range []string{`import {u} from "https://workspace.invalid/lib/util.js"`,
		`"https://workspace.invalid/vendor/util2.js":"data:`, `"https://workspace.invalid/vendor/deep/u3.js":"data:`,
		`"https://workspace.invalid/lib/one-util.js":"data:`} {
		if !strings.Contains(r.HTML, want) {
			t.Errorf("output lacks %s", want)
		}
	}
	mods := map[string]string{}
	for _, f := range []string{"vendor/a.js", "vendor/deep/b.js", "vendor/one.js"} {
		mods[f] = moduleText(t, r.HTML, f)
	}
	for f, want := range map[string]string{"vendor/a.js": `from "https://workspace.invalid/vendor/util2.js"`,
		"vendor/deep/b.js": `from "https://workspace.invalid/vendor/deep/u3.js"`, "vendor/one.js": `from "https://workspace.invalid/lib/one-util.js"`} {
		if !strings.Contains(mods[f], want) {
			t.Errorf("%s: want %s in\n%s", f, want, mods[f])
		}
	}
	if !strings.Contains(mods["vendor/a.js"], `import c from "https://cdn.example/x.js"`) {
		t.Errorf("the scope's external target is not written into the module:\n%s", mods["vendor/a.js"])
	}
	for _, d := range r.Diagnostics {
		if d.Kind == DiagUnsupportedModule {
			t.Errorf("unexpected diagnostic %+v", d)
		}
	}
}

// moduleText decodes the data: module the document's import map gives the workspace module at
// path.
func moduleText(t *testing.T, doc, path string) string {
	t.Helper()
	key := `"https://workspace.invalid/` + path + `":"data:text/javascript;charset=utf-8;base64,`
	i := strings.Index(doc, key)
	if i < 0 {
		t.Fatalf("no module %s in the import map", path)
	}
	rest := doc[i+len(key):]
	b, err := base64.StdEncoding.DecodeString(rest[:strings.IndexByte(rest, '"')])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
