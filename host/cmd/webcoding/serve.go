package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/webcoding/studio/host/devserver"
)

func init() {
	register(&command{
		Name:    "serve",
		Usage:   "[--addr 127.0.0.1:8080] [--dir dist]",
		Summary: "serve the built sites under DIR: each DIR/NAME/ answers at /NAME/",
		Run:     runServe,
	})
}

// runServe serves DIR on ADDR until interrupted (SPEC §3). The address defaults to loopback;
// binding another interface must be asked for explicitly. Once listening it prints one line per
// built site (a sub-directory of DIR with an index.html) to stderr, "webcoding serve: serving
// DIR/NAME, open http://ADDR/NAME/ (Ctrl+C stops)" — the last line `make run` prints — or a
// warning when DIR has none.
func runServe(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("serve", e)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	dir := fs.String("dir", "dist", "the `directory` of built sites, one per sub-directory (webcoding build --out writes one)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		return usagef("--dir %s is not a directory: run `webcoding build` (or `make build`) first", *dir)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: devserver.Handler(*dir), ReadHeaderTimeout: 10 * time.Second}
	sites := builtSites(*dir)
	for _, name := range sites {
		fmt.Fprintf(e.stderr, "webcoding serve: serving %s, open http://%s/%s/ (Ctrl+C stops)\n", filepath.Join(*dir, name), ln.Addr(), name)
	}
	if len(sites) == 0 {
		fmt.Fprintf(e.stderr, "webcoding serve: warning: %s has no built site (no sub-directory with an index.html), so every page is 404: run `webcoding build --out %s` (or `make build`) first; serving http://%s/ anyway\n", *dir, *dir, ln.Addr())
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// builtSites returns the names of the sub-directories of dir that hold an index.html, sorted.
func builtSites(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, en := range entries {
		if !en.IsDir() {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, en.Name(), "index.html")); err == nil && st.Mode().IsRegular() {
			names = append(names, en.Name())
		}
	}
	return names
}
