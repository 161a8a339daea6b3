package main

import (
	"context"
	"fmt"

	"github.com/webcoding/studio/host/sitebuild"
)

func init() {
	register(&command{
		Name:    "build",
		Usage:   "[--base /web-coding/] [--out dist] [--site site]",
		Summary: "write the static site to OUT/<base without slashes>/",
		Run:     runBuild,
	})
}

// runBuild writes the site (SPEC §3: `build [--base /web-coding/] [--out dist]`).
func runBuild(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("build", e)
	base := fs.String("base", "/web-coding/", "URL path the site is served under (starts and ends with /)")
	out := fs.String("out", "dist", "output root")
	site := fs.String("site", "site", "site source directory")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rep, err := sitebuild.Build(sitebuild.Options{Base: *base, Out: *out, Site: *site})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "webcoding build: wrote %s (base %s, build %s; wasm %d bytes, %d gzip, %d brotli)\n",
		rep.Dir, *base, rep.Build, rep.WasmBytes, rep.WasmGzip, rep.WasmBrotli)
	return nil
}
