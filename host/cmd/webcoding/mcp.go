package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/webcoding/studio/host/mcpserver"
)

func init() {
	register(&command{
		Name: "mcp",
		Usage: "[--surface studio|realtime|live] [--dir DIR] [--downloads DIR] [--http ADDR] [--allow-remote] [--names provider|canonical] [--approve none|all|TOOL,...] [--allow-destructive] " +
			"[--autosave] [--durable memory|redis://…|postgres://…] [--module PATH] [--host-timeout D]",
		Summary: "serve the tool registry as an MCP server (stdio, or Streamable HTTP with --http)",
		Run:     runMCP,
	})
}

// mcpFlags are the flags of `mcp` (SPEC §3).
type mcpFlags struct {
	ws                            *workspaceFlags
	http, names, approve, durable string
	allowDestructive, autosave    bool
	allowRemote                   bool
	surface                       *string
}

// runMCP serves the core's registry over MCP (host/mcpserver): on stdin/stdout by default,
// or on Streamable HTTP at --http ADDR (a bare port binds 127.0.0.1). stdout carries protocol
// bytes only; diagnostics go to stderr. SIGINT/SIGTERM end the server after the calls inside
// the core finish.
//
// Errors (exit 1): the module cannot start; the server cannot be built (catalog); the HTTP
// address cannot be bound; a --durable redis://… or postgres://… backend that does not answer
// (see openDurable; its records then back every idempotent call). --dir links a folder as the workspace (workspace.saveAll writes back to it).
// Bad flags exit 2.
func runMCP(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("mcp", e)
	f := mcpFlags{ws: addWorkspaceFlags(fs, true)}
	fs.StringVar(&f.http, "http", "", "serve Streamable HTTP at `ADDR` (host:port; a bare port binds 127.0.0.1) instead of stdio, at /mcp")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "let --http bind a non-loopback address (the server has no authentication: anyone who reaches it can edit the workspace)")
	fs.StringVar(&f.names, "names", mcpserver.NamesProvider, "tool names: provider (workspace_getStatus) or canonical (workspace.getStatus)")
	fs.StringVar(&f.approve, "approve", "none", "approved mutations: none, all, or a comma-separated list of tool names")
	fs.BoolVar(&f.allowDestructive, "allow-destructive", false, "let approved tools marked destructiveHint run")
	fs.BoolVar(&f.autosave, "autosave", false, "follow every successful mutation with workspace.saveAll")
	fs.StringVar(&f.durable, "durable", "", "durable idempotency records: memory, or a redis://… or postgres://… `URL` (records outlive the server)")
	f.surface = addSurfaceFlag(fs)
	hf := addHostFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	catalog, err := surfaceCatalog(*f.surface, f.ws.dir, map[bool]string{true: "--autosave"}[f.autosave])
	if err != nil {
		return err
	}
	if f.names != mcpserver.NamesProvider && f.names != mcpserver.NamesCanonical {
		return usagef("--names must be provider or canonical, got %q", f.names)
	}
	approval, err := mcpserver.ParseApprove(f.approve)
	if err != nil {
		return usagef("%v", err)
	}
	var listen string
	if f.http != "" {
		addr, loopback, err := mcpserver.ListenAddr(f.http)
		if err != nil {
			return usagef("--http %q: %v", f.http, err)
		}
		if !loopback && !f.allowRemote {
			return usagef("--http %s is not a loopback address; the MCP server has no authentication, so any host that can reach it could edit the workspace: bind 127.0.0.1, or add --allow-remote", addr)
		}
		if !loopback {
			fmt.Fprintf(e.stderr, "webcoding mcp: warning: %s is not a loopback address (--allow-remote); any host that can reach it can edit the workspace (browsers are still limited to loopback origins)\n", addr)
		}
		listen = addr
	}
	durable, closeDurable, err := setupDurable(ctx, "mcp", f.durable, hf)
	if err != nil {
		return err
	}
	defer closeDurable() // after the host is closed (deferred later, runs first)

	if err := f.ws.checkDir(); err != nil {
		return err
	}
	f.ws.apply(hf)
	hf.journal = "mcp"

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	h, err := e.newHost(ctx, e, hf)
	if err != nil {
		return err
	}
	defer h.Close(context.WithoutCancel(ctx))
	srv, err := mcpserver.New(ctx, h, mcpserver.Options{Names: f.names, Approval: approval,
		AllowDestructive: f.allowDestructive, AllowRemote: f.allowRemote, Autosave: f.autosave, Durable: durable.name, Catalog: catalog, Log: e.stderr,
		SessionID: siteSession(f.ws.dir)})
	if err != nil {
		return err
	}
	if unknown := srv.UnknownApprovals(); len(unknown) > 0 {
		return usagef("--approve names %s, which %s not a tool: run 'webcoding tools' to see the tool names", strings.Join(unknown, ", "), map[bool]string{true: "is", false: "are"}[len(unknown) == 1])
	}
	if listen == "" {
		err := srv.Run(ctx, &mcpserver.LineTransport{In: e.stdin, Out: e.stdout, Log: e.stderr})
		if ctx.Err() != nil { // a signal: a clean stop
			return nil
		}
		return err
	}
	return serveMCPHTTP(ctx, e, srv, listen)
}

// serveMCPHTTP serves srv at addr (path /mcp; / too) until ctx ends, then shuts down
// (in-flight requests get 10 s), waits for the calls inside the core and names unsaved edits
// on stderr (Server.WarnUnsaved).
func serveMCPHTTP(ctx context.Context, e *env, srv *mcpserver.Server, addr string) error {
	ln, err := srv.Listen(addr)
	if err != nil {
		return fmt.Errorf("--http: %w", err)
	}
	hs := &http.Server{Handler: srv.HTTPHandler(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(e.stderr, "webcoding mcp: serving MCP (Streamable HTTP) at http://%s%s\n", ln.Addr(), mcpserver.HTTPPath)
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		srv.Wait()
		srv.WarnUnsaved(ctx)
		return fmt.Errorf("--http: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	srv.Wait()
	srv.WarnUnsaved(ctx)
	return nil
}
