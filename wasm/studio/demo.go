package studio

import (
	"context"
	"encoding/json"
	"sort"
	"sync"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/schema"
)

type schemaIssue = schema.Issue

// Demo tool names. The demo catalog is a stand-in until the 23-tool studio catalog lands in
// the same assembly; it exercises every registry step on both hosts.
const (
	ToolDemoGetStatus = "demo.getStatus"
	ToolDemoReadFile  = "demo.readFile"
	ToolDemoWriteFile = "demo.writeFile"
	ToolDemoReset     = "demo.reset"
)

// MaxDemoPathChars bounds demo paths in code points (REFERENCE §2: path 1..160).
const MaxDemoPathChars = 160

const pathProp = `"path":{"type":"string","minLength":1,"maxLength":160}`

var (
	demoNoArgs   = json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"additionalProperties":false}`)
	demoReadIn   = json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{` + pathProp + `},"required":["path"],"additionalProperties":false}`)
	demoReadOut  = json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"path":{"type":"string"},"source":{"type":"string"},"revision":{"type":"integer","minimum":0}},"required":["path","source","revision"],"additionalProperties":false}`)
	demoWriteIn  = json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{` + pathProp + `,"source":{"type":"string","maxLength":80000},"expectedRevision":{"type":"integer","minimum":0}},"required":["path","source"],"additionalProperties":false}`)
	demoWriteOut = json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"path":{"type":"string"},"revision":{"type":"integer","minimum":1}},"required":["path","revision"],"additionalProperties":false}`)
	demoStatOut  = json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"revision":{"type":"integer","minimum":0},"fileCount":{"type":"integer","minimum":0},"paths":{"type":"array","items":{"type":"string"}}},"required":["revision","fileCount","paths"],"additionalProperties":false}`)
)

// demoReadResult is demo.readFile's result. Its fields are in the order a map would marshal
// them (the bytes are what they were before it was a struct), and its types prove demoReadOut:
// strings, and an unsigned revision for {"type":"integer","minimum":0}.
type demoReadResult struct {
	Path     string `json:"path"`
	Revision uint64 `json:"revision"`
	Source   string `json:"source"`
}

// demoStore is the demo catalog's tiny in-memory file map.
type demoStore struct {
	mu       sync.Mutex
	files    map[string]string
	revision int64
}

func newDemoStore() *demoStore {
	return &demoStore{revision: 1, files: map[string]string{
		"index.html": "<!doctype html><title>Demo</title><h1>Hello</h1>",
		"styles.css": ":root { --accent: #8b5cf6; }",
	}}
}

func registerDemo(r *registry.Registry, _ Ports) error {
	st := newDemoStore()
	tools := []registry.Tool{
		{Name: ToolDemoGetStatus, Description: "Report the demo workspace revision and file paths.",
			InputSchema: demoNoArgs, OutputSchema: demoStatOut,
			Annotations: mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
			Handler: func(ctx context.Context, c *registry.Call) (any, error) {
				st.mu.Lock()
				defer st.mu.Unlock()
				paths := make([]string, 0, len(st.files))
				for p := range st.files {
					paths = append(paths, p)
				}
				sort.Strings(paths)
				return map[string]any{"revision": st.revision, "fileCount": len(paths), "paths": paths}, nil
			}},
		{Name: ToolDemoReadFile, Description: "Read one demo file. path: 1..160 characters.",
			InputSchema: demoReadIn, OutputSchema: demoReadOut,
			Annotations: mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
			Handler: func(ctx context.Context, c *registry.Call) (any, error) {
				// path is required by demoReadIn: the validated tree holds it (no second decode).
				path, _ := c.StringArg("path")
				st.mu.Lock()
				defer st.mu.Unlock()
				src, ok := st.files[path]
				if !ok {
					return nil, mcp.NewError(mcp.CodeWorkspaceFileNotFound, false, map[string]any{"path": path}, "File %q was not found.", path)
				}
				// A typed result whose Go type proves demoReadOut (schema.AdmitsType): no
				// per-call output validation. The revision starts at 1 and only grows.
				return demoReadResult{Path: path, Revision: uint64(st.revision), Source: src}, nil
			}},
		{Name: ToolDemoWriteFile, Description: "Write one demo file (source up to 80,000 characters).",
			InputSchema: demoWriteIn, OutputSchema: demoWriteOut,
			Annotations: mcp.ToolAnnotations{IdempotentHint: true},
			Handler: func(ctx context.Context, c *registry.Call) (any, error) {
				var in struct {
					Path             string `json:"path"`
					Source           string `json:"source"`
					ExpectedRevision *int64 `json:"expectedRevision"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				st.mu.Lock()
				defer st.mu.Unlock()
				if in.ExpectedRevision != nil && *in.ExpectedRevision != st.revision {
					return nil, mcp.NewError(mcp.CodeWorkspaceRevisionConflict, true,
						map[string]any{"expectedRevision": *in.ExpectedRevision, "currentRevision": st.revision},
						"Workspace revision mismatch: expected %d, current %d. Re-read the workspace status and retry with the current revision.",
						*in.ExpectedRevision, st.revision)
				}
				st.files[in.Path] = in.Source
				st.revision++
				return map[string]any{"path": in.Path, "revision": st.revision}, nil
			}},
		{Name: ToolDemoReset, Description: "Restore the demo files.",
			InputSchema: demoNoArgs, OutputSchema: demoStatOut,
			Annotations: mcp.ToolAnnotations{DestructiveHint: true, IdempotentHint: true},
			Handler: func(ctx context.Context, c *registry.Call) (any, error) {
				fresh := newDemoStore()
				st.mu.Lock()
				defer st.mu.Unlock()
				st.files = fresh.files
				st.revision++
				return map[string]any{"revision": st.revision, "fileCount": len(st.files), "paths": []string{"index.html", "styles.css"}}, nil
			}},
	}
	for _, t := range tools {
		if err := r.Register(t); err != nil {
			return err
		}
	}
	return nil
}
