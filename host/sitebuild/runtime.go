package sitebuild

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// RuntimeSources is the preview runtime's source folder and RuntimeMinFile the generated file
// the compiler embeds, both relative to the module root (docs/design.md §5.29).
const (
	RuntimeSources = "wasm/preview/runtime"
	RuntimeMinFile = "wasm/preview/runtime.min.js"
	// RuntimePlaceholder stands where the compiler puts the runtime's JSON config; esbuild
	// keeps it because it is a free (global) name.
	RuntimePlaceholder = "WEBCODING_RUNTIME_CONFIG"
)

// MinifiedRuntime reads the runtime's *.js files under root/RuntimeSources in name order,
// wraps them as the compiler runs them — one strict function of the config, called with
// RuntimePlaceholder — and minifies that with esbuild (whitespace, syntax and local
// identifiers; no target lowering). The result is what RuntimeMinFile must hold.
//
// Errors: a file that cannot be read, or esbuild's messages for a syntax error.
func MinifiedRuntime(root string) ([]byte, error) {
	dir := filepath.Join(root, RuntimeSources)
	names, err := filepath.Glob(filepath.Join(dir, "*.js"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("sitebuild: no runtime sources in %s", dir)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("(function(CFG){\"use strict\";\n")
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		b.Write(src)
		b.WriteByte('\n')
	}
	b.WriteString("})(" + RuntimePlaceholder + ");\n")
	r := api.Transform(b.String(), api.TransformOptions{
		Loader:            api.LoaderJS,
		MinifyWhitespace:  true,
		MinifySyntax:      true,
		MinifyIdentifiers: true,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetASCII,
	})
	if len(r.Errors) > 0 {
		msgs := make([]string, 0, len(r.Errors))
		for _, m := range r.Errors {
			loc := ""
			if m.Location != nil {
				loc = fmt.Sprintf("line %d: ", m.Location.Line)
			}
			msgs = append(msgs, loc+m.Text)
		}
		return nil, fmt.Errorf("sitebuild: minifying the preview runtime: %s", strings.Join(msgs, "; "))
	}
	if strings.Count(string(r.Code), RuntimePlaceholder) != 1 {
		return nil, fmt.Errorf("sitebuild: the minified runtime does not call itself with %s exactly once", RuntimePlaceholder)
	}
	return r.Code, nil
}
