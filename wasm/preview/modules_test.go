package preview

import (
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
