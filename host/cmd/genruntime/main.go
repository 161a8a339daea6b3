// Command genruntime writes wasm/preview/runtime.min.js, the minified preview runtime the
// compiler embeds, from wasm/preview/runtime/*.js (docs/design.md §5.29). Run it through
// `go generate ./wasm/preview` after editing the runtime; TestRuntimeMinIsFresh fails until
// the file is regenerated.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/webcoding/studio/host/sitebuild"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	b, err := sitebuild.MinifiedRuntime(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genruntime:", err)
		os.Exit(1)
	}
	out := filepath.Join(root, sitebuild.RuntimeMinFile)
	if err := os.WriteFile(out, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genruntime:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "genruntime: wrote %s (%d bytes)\n", out, len(b))
}
