package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

func init() {
	register(&command{
		Name:    "init",
		Usage:   "DIR [--module PATH] [--host-timeout D]",
		Summary: "write the built-in seed workspace (canvas-landing, 4 files) into the new or empty folder DIR",
		Run:     runInit,
	})
}

// runInit writes the seed workspace into DIR, reading it from the core with the same tools a
// model would use (workspace.listFiles, then workspace.readFile per file), so the files on
// disk are exactly what `--dir`-less commands work on.
//
// Errors: exit 2 without exactly one DIR argument or when DIR exists and is not empty (nothing
// is ever overwritten); exit 1 when the module cannot start or a file cannot be written.
func runInit(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("init", e)
	hf := addHostFlags(fs)
	var dir string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		dir, args = args[0], args[1:]
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if dir == "" {
		return usagef("init needs the folder to create, e.g. `webcoding init my-site`")
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return usagef("%s is not empty: init never overwrites files", dir)
	} else if err != nil && !os.IsNotExist(err) {
		return usagef("%s: %v", dir, err)
	}
	h, err := e.newHost(ctx, e, hf)
	if err != nil {
		return err
	}
	defer h.Close(context.WithoutCancel(ctx))
	c := &rpcClient{h: h}
	call := func(name string, args any, out any) error {
		a, _ := json.Marshal(args)
		params, _ := json.Marshal(map[string]any{"name": name, "arguments": json.RawMessage(a),
			"_meta": map[string]any{"source": "local", "mode": "direct"}})
		raw, rerr, err := c.call(ctx, "tools/call", params)
		if err != nil {
			return err
		}
		if rerr != nil {
			return fmt.Errorf("%s: the core answered %v", name, rerr)
		}
		var res struct {
			IsError           bool            `json:"isError"`
			StructuredContent json.RawMessage `json:"structuredContent"`
			Content           []struct{ Text string }
		}
		if err := json.Unmarshal(raw, &res); err != nil || res.IsError {
			return fmt.Errorf("%s failed: %s", name, raw)
		}
		return json.Unmarshal(res.StructuredContent, out)
	}
	var list struct {
		Files []struct {
			Path string `json:"path"`
			Kind string `json:"kind"`
		} `json:"files"`
	}
	if err := call("workspace.listFiles", map[string]any{}, &list); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, f := range list.Files {
		if f.Kind != "text" {
			return fmt.Errorf("%s is a %s file: init writes text files only", f.Path, f.Kind)
		}
		var file struct {
			Source string `json:"source"`
		}
		if err := call("workspace.readFile", map[string]any{"path": f.Path}, &file); err != nil {
			return err
		}
		if d := filepath.Dir(filepath.FromSlash(f.Path)); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		if err := root.WriteFile(filepath.FromSlash(f.Path), []byte(file.Source), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "webcoding init: wrote %s\n", filepath.Join(dir, f.Path))
	}
	return nil
}
