package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/webcoding/studio/host/devserver"
)

func init() {
	register(&command{
		Name:    "serve",
		Usage:   "[--addr 127.0.0.1:8080] [--dir dist]",
		Summary: "serve the built site so that DIR/web-coding/ answers at /web-coding/",
		Run:     runServe,
	})
}

// runServe serves DIR on ADDR until interrupted (SPEC §3). The address defaults to loopback;
// binding another interface must be asked for explicitly.
func runServe(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("serve", e)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	dir := fs.String("dir", "dist", "built site root (see `webcoding build`)")
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
	entries, _ := os.ReadDir(*dir)
	for _, en := range entries {
		if en.IsDir() {
			fmt.Fprintf(e.stderr, "webcoding serve: http://%s/%s/\n", ln.Addr(), en.Name())
		}
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
