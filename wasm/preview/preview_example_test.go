package preview_test

import (
	"fmt"
	"strings"

	"github.com/webcoding/studio/wasm/preview"
)

func ExampleCompile() {
	files := []preview.File{
		{Path: "index.html", Language: "html", Kind: "text", Source: `<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head>` +
			`<body><h1>Hi</h1><script type="module">import { greet } from './app.js'; import 'react'; greet();</script></body></html>`},
		{Path: "styles.css", Language: "css", Kind: "text", Source: `h1 { color: rebeccapurple; }`},
		{Path: "app.js", Language: "javascript", Kind: "text", Source: `export function greet() { console.log("hello"); }`},
	}
	r := preview.Compile(files, preview.Options{Revision: 2, Nonce: "mount-1", Bridge: true})
	fmt.Println("entry:", r.Entry)
	fmt.Println("inlined css:", strings.Contains(r.HTML, `<style href="styles.css" data-workspace-source="styles.css" data-webcoding-style="0">h1 { color: rebeccapurple; }</style>`))
	fmt.Println("bridge scripts:", strings.Count(r.HTML, preview.BridgeAttr))
	for _, d := range r.Diagnostics {
		fmt.Printf("%s %s: %s\n", d.Kind, d.SourcePath, d.Message)
	}
	// Output:
	// entry: index.html
	// inlined css: true
	// bridge scripts: 1
	// unsupported-module-reference index.html: Bare module specifier is unavailable in the standalone preview: react
}
