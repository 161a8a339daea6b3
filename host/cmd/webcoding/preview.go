package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
)

func init() {
	register(&command{
		Name:    "preview",
		Usage:   "[--dir DIR] [--out FILE] [--module PATH] [--host-timeout D]",
		Summary: `compile the preview document; print {"entry","revision","diagnostics","bytes"}`,
		Run:     runPreview,
	})
	register(&command{
		Name:    "export",
		Usage:   "--out FILE [--dir DIR] [--module PATH] [--host-timeout D]",
		Summary: "write the standalone HTML export (CSS/JS inlined, assets as data: URLs) to FILE",
		Run:     runExport,
	})
}

// runPreview compiles the workspace (--dir, else the seed) with preview/compile — the preview
// compiler of REFERENCE §5, bridge and headless nonce included — and prints one line
// {"entry","revision","diagnostics":[...],"bytes"} (bytes: the document's length in bytes).
// With --out the compiled document is written to FILE.
//
// Errors (exit 1): the module cannot start or refuses the compile; FILE cannot be written.
func runPreview(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("preview", e)
	ws := addWorkspaceFlags(fs, false)
	outFile := fs.String("out", "", "write the compiled HTML document to `FILE`")
	hf := addHostFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ws.apply(hf)
	raw, err := sessionMethod(ctx, e, hf, "preview/compile")
	if err != nil {
		return err
	}
	var res struct {
		Entry       json.RawMessage `json:"entry"`
		Revision    json.RawMessage `json:"revision"`
		Diagnostics json.RawMessage `json:"diagnostics"`
		Bytes       json.RawMessage `json:"bytes"`
		HTML        *string         `json:"html"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.HTML == nil || res.Entry == nil || res.Revision == nil || res.Diagnostics == nil || res.Bytes == nil {
		return fmt.Errorf("preview/compile: the module answered something that is not a compile result: %v: %.200q", err, raw)
	}
	if *outFile != "" {
		if err := os.WriteFile(*outFile, []byte(*res.HTML), 0o644); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	line, err := marshal(struct {
		Entry       json.RawMessage `json:"entry"`
		Revision    json.RawMessage `json:"revision"`
		Diagnostics json.RawMessage `json:"diagnostics"`
		Bytes       json.RawMessage `json:"bytes"`
	}{res.Entry, res.Revision, res.Diagnostics, res.Bytes})
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(append(line, '\n'))
	return err
}

// runExport writes the standalone HTML export of the workspace (preview/export) to --out and
// prints {"out": FILE, "bytes": N}.
//
// Errors: exit 2 without --out; exit 1 when the module cannot start, the workspace has no
// HTML entry (the core refuses the export), or FILE cannot be written.
func runExport(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("export", e)
	ws := addWorkspaceFlags(fs, false)
	outFile := fs.String("out", "", "the HTML `FILE` to write (required)")
	hf := addHostFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *outFile == "" {
		return usagef("--out FILE is required")
	}
	ws.apply(hf)
	raw, err := sessionMethod(ctx, e, hf, "preview/export")
	if err != nil {
		return err
	}
	var res struct {
		HTML *string `json:"html"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.HTML == nil {
		return fmt.Errorf("preview/export: the module answered something that is not {html}: %v", err)
	}
	if err := os.WriteFile(*outFile, []byte(*res.HTML), 0o644); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	line, err := marshal(map[string]any{"out": *outFile, "bytes": len(*res.HTML)})
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(append(line, '\n'))
	return err
}

// sessionMethod starts a host and calls one parameterless session method ({} params).
func sessionMethod(ctx context.Context, e *env, hf *hostFlags, method string) (json.RawMessage, error) {
	h, err := e.newHost(ctx, e, hf)
	if err != nil {
		return nil, err
	}
	defer h.Close(context.WithoutCancel(ctx))
	raw, rerr, err := (&rpcClient{h: h}).call(ctx, method, []byte(`{}`))
	if err != nil {
		return nil, err
	}
	if rerr != nil {
		return nil, fmt.Errorf("%s: the core answered %v", method, rerr)
	}
	return raw, nil
}
