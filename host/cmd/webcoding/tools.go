package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// maxToolPages bounds how many tools/list pages `tools` follows (as registry.ListAllTools).
const maxToolPages = 1000

func init() {
	register(&command{
		Name:    "tools",
		Usage:   "[--pretty] [--module PATH] [--host-timeout D]",
		Summary: `print the full canonical tools/list as {"tools":[...]}`,
		Run:     runTools,
	})
}

// runTools follows nextCursor through every tools/list page of the module and prints
// {"tools":[...]} on one line (or indented with --pretty).
//
// Errors (exit 1): the module cannot start, answers a JSON-RPC error, a page has no tools
// array, a cursor repeats, or there are more than maxToolPages pages.
func runTools(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("tools", e)
	pretty := fs.Bool("pretty", false, "indent the output")
	hf := addHostFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	h, err := e.newHost(ctx, e, hf)
	if err != nil {
		return err
	}
	defer h.Close(context.WithoutCancel(ctx))
	c := &rpcClient{h: h}

	tools := []json.RawMessage{}
	seen := map[string]bool{}
	var params []byte
	for page := 0; ; page++ {
		if page == maxToolPages {
			return fmt.Errorf("tools/list: more than %d pages", maxToolPages)
		}
		res, rerr, err := c.call(ctx, "tools/list", params)
		if err != nil {
			return err
		}
		if rerr != nil {
			return fmt.Errorf("tools/list: the core answered %v", rerr)
		}
		var p struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(res, &p); err != nil || p.Tools == nil {
			return fmt.Errorf("tools/list: page %d is not {tools, nextCursor?}: %.200q", page+1, res)
		}
		tools = append(tools, p.Tools...)
		if p.NextCursor == "" {
			break
		}
		if seen[p.NextCursor] {
			return fmt.Errorf("tools/list: cursor %q repeated on page %d", p.NextCursor, page+1)
		}
		seen[p.NextCursor] = true
		params = appendString([]byte(`{"cursor":`), p.NextCursor)
		params = append(params, '}')
	}
	out, err := marshal(struct {
		Tools []json.RawMessage `json:"tools"`
	}{tools})
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	if *pretty {
		var b bytes.Buffer
		if err := json.Indent(&b, out, "", "  "); err == nil {
			out = b.Bytes()
		}
	}
	if _, err := e.stdout.Write(append(out, '\n')); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}
