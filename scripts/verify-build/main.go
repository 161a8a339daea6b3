// Command verify-build checks a built static site before it is served or deployed.
//
//	go run ./scripts/verify-build [DIR [BASE]]
//
// DIR defaults to dist/web-coding and BASE to /web-coding/. It prints every problem (a
// referenced asset missing under the base or inside DIR, a page resource on another origin, a
// precompressed sibling that does not match its original) one per line on stderr and exits
// 1; exit 2 means DIR could not be read or the arguments are wrong; exit 0 prints a one-line
// summary. The checks are those of package verify.
package main

import (
	"fmt"
	"os"

	"github.com/webcoding/studio/scripts/verify-build/verify"
)

func main() {
	dir, base := "dist/web-coding", "/web-coding/"
	args := os.Args[1:]
	if len(args) > 2 || len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprintln(os.Stderr, "usage: verify-build [DIR [BASE]]   (defaults: dist/web-coding /web-coding/)")
		os.Exit(2)
	}
	if len(args) > 0 {
		dir = args[0]
	}
	if len(args) > 1 {
		base = args[1]
	}
	probs, err := verify.Dir(dir, base)
	if err != nil {
		fmt.Fprintln(os.Stderr, "verify-build:", err)
		os.Exit(2)
	}
	if len(probs) > 0 {
		fmt.Fprintf(os.Stderr, "verify-build: %d problem(s) in %s (base %s):\n", len(probs), dir, base)
		for _, p := range probs {
			fmt.Fprintln(os.Stderr, "  "+p.String())
		}
		os.Exit(1)
	}
	fmt.Printf("verify-build: %s ok (base %s)\n", dir, base)
}
