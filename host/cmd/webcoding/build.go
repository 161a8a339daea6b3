package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

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
//
// Errors: exit 2 for a bad --base (see checkBase); exit 1 when the build fails.
func runBuild(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("build", e)
	base := fs.String("base", "/web-coding/", "URL path the site is served under (starts and ends with /, no '.' or '..' segments)")
	out := fs.String("out", "dist", "output root")
	site := fs.String("site", "site", "site source directory")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkBase(*base); err != nil {
		return err
	}
	start := time.Now()
	rep, err := sitebuild.Build(sitebuild.Options{Base: *base, Out: *out, Site: *site, Progress: progressPrinter(e.stderr, start, time.Now)})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "webcoding build: wrote %s in %.1f s (base %s, build %s; studio wasm %d bytes, %d gzip, %d brotli; surfaces wasm %d bytes, %d gzip, %d brotli)\n",
		rep.Dir, time.Since(start).Seconds(), *base, rep.Build, rep.WasmBytes, rep.WasmGzip, rep.WasmBrotli,
		rep.SurfaceWasmBytes, rep.SurfaceWasmGzip, rep.SurfaceWasmBrotli)
	return nil
}

// progressPrinter returns the sitebuild progress callback of `webcoding build`: one stderr
// line per step as it starts, "webcoding build: [+12.3s] <step>", the time since start, so a
// slow step shows by the gap to the next line. stdout stays empty (build prints no result).
func progressPrinter(w io.Writer, start time.Time, now func() time.Time) func(string) {
	return func(line string) {
		fmt.Fprintf(w, "webcoding build: [+%.1fs] %s\n", now().Sub(start).Seconds(), line)
	}
}

// checkBase validates --base as a usage error with the precise reason: it must start and end
// with "/", have no empty ("//"), "." or ".." segments (the site directory is the base without
// its slashes, so these would escape or alias --out), and hold only printable characters other
// than '\\', '?', '#' and '%' (it is written into URLs and a file path as it is).
func checkBase(b string) error {
	if !strings.HasPrefix(b, "/") || !strings.HasSuffix(b, "/") {
		return usagef("--base %q must start and end with \"/\", e.g. /web-coding/", b)
	}
	for _, r := range b {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) || strings.ContainsRune(`\?#%`, r) {
			return usagef("--base %q must not contain %q", b, r)
		}
	}
	if b == "/" {
		return nil
	}
	for _, seg := range strings.Split(strings.Trim(b, "/"), "/") {
		switch seg {
		case "":
			return usagef("--base %q must not contain empty segments (\"//\")", b)
		case ".", "..":
			return usagef("--base %q must not contain '.' or '..' segments", b)
		}
		if strings.Contains(seg, "..") {
			return usagef("--base %q must not contain \"..\"", b)
		}
	}
	return nil
}
