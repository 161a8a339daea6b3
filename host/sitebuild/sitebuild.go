// Package sitebuild writes the static site into OUT/<base without slashes>/ (SPEC §3,
// `webcoding build`). For now it copies site/ with the base path filled in; the bundling of the
// shim and CodeMirror, the GOOS=js core, content hashes, precompression and the service worker
// come with the browser studio (issue 4).
package sitebuild

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Options configure Build.
type Options struct {
	// Base is the URL path the site is served under; it must start and end with "/"
	// (default "/web-coding/").
	Base string
	// Out is the output root (default "dist"); files land in Out/<Base without slashes>/.
	Out string
	// Site is the site source directory (default "site").
	Site string
}

// Build writes the site and returns the directory it wrote.
//
// Errors: a base that is not "/…/", a missing site directory, or a write failure.
func Build(o Options) (string, error) {
	if o.Base == "" {
		o.Base = "/web-coding/"
	}
	if o.Out == "" {
		o.Out = "dist"
	}
	if o.Site == "" {
		o.Site = "site"
	}
	if !strings.HasPrefix(o.Base, "/") || !strings.HasSuffix(o.Base, "/") || strings.Contains(o.Base, "..") {
		return "", fmt.Errorf("sitebuild: base %q must start and end with \"/\"", o.Base)
	}
	dst := filepath.Join(o.Out, filepath.FromSlash(strings.Trim(o.Base, "/")))
	if err := os.RemoveAll(dst); err != nil {
		return "", fmt.Errorf("sitebuild: %w", err)
	}
	src := os.DirFS(o.Site)
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dst, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if strings.HasPrefix(d.Name(), ".") || d.Name() == "package.json" || d.Name() == "package-lock.json" {
			return nil
		}
		b, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".html") {
			b = []byte(strings.ReplaceAll(string(b), "{{BASE}}", o.Base))
		}
		return os.WriteFile(target, b, 0o644)
	})
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("sitebuild: site directory %q not found (run from the repository root)", o.Site)
	}
	if err != nil {
		return "", fmt.Errorf("sitebuild: %w", err)
	}
	return dst, nil
}
