//go:build conformance

package studio

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/memstore"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// Test-only tools (SPEC §2.17): compiled only with the conformance build tag, used by the
// conformance vectors to reach every registry path. Shipped builds never contain them.

// Conformance-only studio variants: the studio catalog with an in-memory folder linked (a
// MemFolder named "site" holding the seed files), and faulty versions of it, so the vectors
// reach the folder codes on every host without touching a disk.
const (
	CatalogStudioFolder       = "studio-folder"         // linked, permission granted
	CatalogStudioFolderDenied = "studio-folder-denied"  // linked, then permission "denied"
	CatalogStudioFolderStale  = "studio-folder-stale"   // linked, then the root vanished
	CatalogStudioFolderFaulty = "studio-folder-faulty"  // linked; every write fails with an I/O error
	CatalogStudioFolderEmpty  = "studio-folder-emptied" // linked, then every file removed from the folder
	CatalogStudioFolderAssets = "studio-folder-assets"  // linked; the seed plus two assets (img/logo.svg, img/dot.png); downloads accepted

	CatalogStudioDownloads        = "studio-downloads"          // downloads accepted (and discarded)
	CatalogStudioPreviewTimeout   = "studio-preview-timeout"    // the preview never acknowledges
	CatalogStudioPreviewError     = "studio-preview-error"      // every mount reports a runtime error
	CatalogStudioPreviewSupersede = "studio-preview-superseded" // every ack is for the next revision
)

// Conformance-only durable backends (rpcsession.DurableConfig.Backend names), so the vectors reach
// TOOL_IDEMPOTENCY_STORE_FAILED on every host without a real server.
const (
	// DurableBackendUnavailable fails every read and compare-and-set ("store unavailable").
	DurableBackendUnavailable = "memory-unavailable"
	// DurableBackendWritesFail lets the first compare-and-set through (a claim's insert) and
	// fails every later one, so terminal transitions fail to persist.
	DurableBackendWritesFail = "memory-writes-fail"
)

// SeededLeaseExpiresAt is the lease expiry of records written by test.seedOperation:
// 2100-01-01T00:00:00Z in Unix ms, so the pending details are the same on every run.
const SeededLeaseExpiresAt = 4102444800000

// faultyBackend is a memstore whose operations fail on demand.
type faultyBackend struct {
	*memstore.Backend
	failReads bool
	limitCAS  bool         // when set, only casOK compare-and-sets succeed
	casOK     atomic.Int64 // compare-and-sets left before they start failing
}

func (b *faultyBackend) Read(ctx context.Context, key string) (durable.Record, bool, error) {
	if b.failReads {
		return durable.Record{}, false, durable.BackendFailure("read", errors.New("store unavailable"))
	}
	return b.Backend.Read(ctx, key)
}

func (b *faultyBackend) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	if b.limitCAS && b.casOK.Add(-1) < 0 {
		return false, durable.BackendFailure("compareAndSet", errors.New("store unavailable"))
	}
	return b.Backend.CompareAndSet(ctx, key, expected, next)
}

func init() {
	rpcsession.RegisterDurableBackend(DurableBackendUnavailable, func() durable.Backend {
		return &faultyBackend{Backend: memstore.New(), failReads: true, limitCAS: true}
	})
	rpcsession.RegisterDurableBackend(DurableBackendWritesFail, func() durable.Backend {
		b := &faultyBackend{Backend: memstore.New(), limitCAS: true}
		b.casOK.Store(1)
		return b
	})
	catalogs[CatalogConformance] = func(_ context.Context, r *registry.Registry, p Ports) (map[string]rpcsession.Method, error) {
		if err := registerDemo(r, p); err != nil {
			return nil, err
		}
		if err := registerTestTools(r); err != nil {
			return nil, err
		}
		return nil, r.Register(seedOperationTool(p.Durable))
	}
	catalogs[CatalogStudioFolder] = studioWithFolder(nil)
	catalogs[CatalogStudioFolderAssets] = func(ctx context.Context, r *registry.Registry, p Ports) (map[string]rpcsession.Method, error) {
		files := seedFiles()
		files["img/logo.svg"] = `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="#10b981"/></svg>`
		files["img/dot.png"] = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
		files["index.html"] = strings.Replace(files["index.html"], "<main>", `<main><img src="img/logo.svg" alt=""><img src="img/dot.png" alt="">`, 1)
		files["styles.css"] += "\n.hero { background-image: url(img/logo.svg); }\n"
		p.Folder = workspace.NewMemFolder("assets", files)
		p.Downloads = func(name, mimeType string, data []byte) error { return nil }
		return registerStudio(ctx, r, p)
	}
	catalogs[CatalogStudioFolderDenied] = studioWithFolder(func(f *workspace.MemFolder) { f.Perm = workspace.PermissionDenied })
	catalogs[CatalogStudioFolderStale] = studioWithFolder(func(f *workspace.MemFolder) { f.Stale = true })
	catalogs[CatalogStudioFolderFaulty] = studioWithFolder(func(f *workspace.MemFolder) {
		f.FailWrite = func(op, path string) error { return errors.New("input/output error") }
	})
	catalogs[CatalogStudioFolderEmpty] = studioWithFolder(func(f *workspace.MemFolder) {
		for _, sf := range workspace.Seed().Files {
			_ = f.DeleteFile(context.Background(), sf.Path)
		}
	})
	catalogs[CatalogStudioDownloads] = func(ctx context.Context, r *registry.Registry, p Ports) (map[string]rpcsession.Method, error) {
		p.Downloads = func(name, mimeType string, data []byte) error { return nil }
		return registerStudio(ctx, r, p)
	}
	catalogs[CatalogStudioPreviewTimeout] = studioWithPreview(func(m Mount) (Ack, error) { return Ack{}, ErrAckTimeout })
	catalogs[CatalogStudioPreviewError] = studioWithPreview(func(m Mount) (Ack, error) {
		return Ack{Revision: m.Revision, Status: workspace.PreviewError, Message: "TypeError: card is null", Runtime: RuntimeSandboxIframe}, nil
	})
	catalogs[CatalogStudioPreviewSupersede] = studioWithPreview(func(m Mount) (Ack, error) {
		return Ack{Revision: m.Revision + 1, Status: workspace.PreviewSynced, Runtime: RuntimeSandboxIframe}, nil
	})
}

// scriptedPreview is a PreviewPort whose acknowledgement of each mount is computed by answer,
// immediately (no waiting), so the PREVIEW_* failures are reproducible on every host.
type scriptedPreview struct {
	mu     sync.Mutex
	last   Mount
	answer func(Mount) (Ack, error)
}

func (s *scriptedPreview) Mount(ctx context.Context, m Mount) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last = m
	return nil
}

func (s *scriptedPreview) Await(ctx context.Context, revision int64, timeout time.Duration) (Ack, error) {
	s.mu.Lock()
	m := s.last
	s.mu.Unlock()
	return s.answer(m)
}

func (s *scriptedPreview) Runtime() string { return RuntimeSandboxIframe }

func studioWithPreview(answer func(Mount) (Ack, error)) catalogFunc {
	return func(ctx context.Context, r *registry.Registry, p Ports) (map[string]rpcsession.Method, error) {
		p.Preview = &scriptedPreview{answer: answer}
		return registerStudio(ctx, r, p)
	}
}

// studioWithFolder returns a catalog that links a fresh seed MemFolder, then applies spoil
// (after the link, so the import itself succeeds).
func studioWithFolder(spoil func(*workspace.MemFolder)) catalogFunc {
	return func(ctx context.Context, r *registry.Registry, p Ports) (map[string]rpcsession.Method, error) {
		folder := workspace.NewMemFolder("site", seedFiles())
		p.Folder = folder
		methods, err := registerStudio(ctx, r, p)
		if err == nil && spoil != nil {
			spoil(folder)
		}
		return methods, err
	}
}

func obj(props string, required ...string) json.RawMessage {
	req := "[]"
	if len(required) > 0 {
		req = `["` + strings.Join(required, `","`) + `"]`
	}
	return json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{` + props + `},"required":` + req + `,"additionalProperties":false}`)
}

func registerTestTools(r *registry.Registry) error {
	var counter atomic.Int64
	msProp := `"ms":{"type":"integer","minimum":0,"maximum":60000}`
	tools := []registry.Tool{
		{Name: "test.sleep", Description: "Sleep for ms, watching the call's context.", InputSchema: obj(msProp, "ms"),
			Annotations: mcp.ToolAnnotations{ReadOnlyHint: true},
			Handler: func(ctx context.Context, c *registry.Call) (any, error) {
				var in struct{ Ms int64 }
				_ = c.Decode(&in)
				select {
				case <-time.After(time.Duration(in.Ms) * time.Millisecond):
					return map[string]any{"sleptMs": in.Ms}, nil
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}},
		{Name: "test.block", Description: "Block for ms without watching the context.", InputSchema: obj(msProp, "ms"),
			Annotations: mcp.ToolAnnotations{ReadOnlyHint: true},
			Handler: func(ctx context.Context, c *registry.Call) (any, error) {
				var in struct{ Ms int64 }
				_ = c.Decode(&in)
				time.Sleep(time.Duration(in.Ms) * time.Millisecond)
				return map[string]any{"sleptMs": in.Ms}, nil
			}},
		{Name: "test.panic", Description: "Panic.", InputSchema: obj(""),
			Annotations: mcp.ToolAnnotations{ReadOnlyHint: true},
			Handler:     func(ctx context.Context, c *registry.Call) (any, error) { panic("test.panic was called") }},
		{Name: "test.oversize", Description: "Return a string of n bytes.",
			InputSchema: obj(`"n":{"type":"integer","minimum":0,"maximum":10000000}`, "n"),
			Annotations: mcp.ToolAnnotations{ReadOnlyHint: true},
			Handler: func(ctx context.Context, c *registry.Call) (any, error) {
				var in struct{ N int }
				_ = c.Decode(&in)
				return map[string]any{"text": strings.Repeat("x", in.N)}, nil
			}},
		{Name: "test.fail", Description: "Fail with the given code.",
			InputSchema: obj(`"code":{"type":"string","minLength":1},"retryable":{"type":"boolean"},"details":{"type":"object"}`, "code"),
			Annotations: mcp.ToolAnnotations{ReadOnlyHint: true},
			Handler: func(ctx context.Context, c *registry.Call) (any, error) {
				var in struct {
					Code      string         `json:"code"`
					Retryable bool           `json:"retryable"`
					Details   map[string]any `json:"details"`
				}
				_ = c.Decode(&in)
				return nil, &mcp.ToolError{Code: mcp.Code(in.Code), Message: "test.fail reported " + in.Code + ".", Retryable: in.Retryable, Details: in.Details}
			}},
		{Name: "test.plainError", Description: "Fail with an uncoded error.", InputSchema: obj(""),
			Annotations: mcp.ToolAnnotations{ReadOnlyHint: true},
			Handler: func(ctx context.Context, c *registry.Call) (any, error) {
				return nil, errors.New("disk quota exceeded")
			}},
		{Name: "test.abort", Description: "Return context.Canceled without being cancelled.", InputSchema: obj(""),
			Annotations: mcp.ToolAnnotations{ReadOnlyHint: true},
			Handler:     func(ctx context.Context, c *registry.Call) (any, error) { return nil, context.Canceled }},
		{Name: "test.badOutput", Description: "Return a result that breaks its output schema.", InputSchema: obj(""),
			OutputSchema: obj(`"count":{"type":"integer"}`, "count"),
			Annotations:  mcp.ToolAnnotations{ReadOnlyHint: true},
			Handler: func(ctx context.Context, c *registry.Call) (any, error) {
				return map[string]any{"count": "three"}, nil
			}},
		{Name: "test.counter", Description: "Increment a counter (a side effect, for idempotency).",
			InputSchema:  obj(`"label":{"type":"string","maxLength":40},"sleepMs":{"type":"integer","minimum":0,"maximum":60000}`),
			OutputSchema: obj(`"count":{"type":"integer"},"label":{"type":"string"}`, "count"),
			Annotations:  mcp.ToolAnnotations{},
			Handler: func(ctx context.Context, c *registry.Call) (any, error) {
				var in struct {
					Label   string `json:"label"`
					SleepMs int64  `json:"sleepMs"`
				}
				_ = c.Decode(&in)
				n := counter.Add(1)
				time.Sleep(time.Duration(in.SleepMs) * time.Millisecond)
				return map[string]any{"count": n, "label": in.Label}, nil
			}},
	}
	for _, t := range tools {
		if err := r.Register(t); err != nil {
			return err
		}
	}
	return nil
}

// seedOperationTool writes a pending durable record owned by another owner, as if another
// tab or process had claimed the call first: key registry.OperationKey(sessionId, tool,
// idempotencyKey), fingerprint audit.Fingerprint(tool, arguments), incarnation "seeded",
// revision 1, lease until SeededLeaseExpiresAt. Without a durable store it fails with
// TOOL_EXECUTION_FAILED.
func seedOperationTool(b durable.Backend) registry.Tool {
	return registry.Tool{Name: "test.seedOperation", Description: "Seed a pending durable claim by another owner.",
		InputSchema: obj(`"sessionId":{"type":"string","minLength":1},"tool":{"type":"string","minLength":1},`+
			`"idempotencyKey":{"type":"string","minLength":1},"ownerId":{"type":"string","minLength":1},"arguments":{"type":"object"}`,
			"tool", "idempotencyKey", "ownerId", "arguments"),
		Annotations: mcp.ToolAnnotations{ReadOnlyHint: true},
		Handler: func(ctx context.Context, c *registry.Call) (any, error) {
			if b == nil {
				return nil, errors.New("no durable store in this session")
			}
			var in struct {
				SessionID      string          `json:"sessionId"`
				Tool           string          `json:"tool"`
				IdempotencyKey string          `json:"idempotencyKey"`
				OwnerID        string          `json:"ownerId"`
				Arguments      json.RawMessage `json:"arguments"`
			}
			if err := c.Decode(&in); err != nil {
				return nil, err
			}
			key := registry.OperationKey(in.SessionID, in.Tool, in.IdempotencyKey)
			now := time.Now().UnixMilli()
			rec := durable.Record{Key: key, Fingerprint: audit.Fingerprint(in.Tool, in.Arguments), OwnerID: in.OwnerID,
				Incarnation: "seeded", Revision: 1, State: durable.StatePending, CreatedAt: now, UpdatedAt: now,
				LeaseExpiresAt: SeededLeaseExpiresAt}
			if err := rec.Validate(); err != nil {
				return nil, err
			}
			ok, err := b.CompareAndSet(ctx, key, nil, &rec)
			if err != nil {
				return nil, err
			}
			return map[string]any{"operationKey": key, "seeded": ok}, nil
		}}
}

// seedFiles returns the seed workspace as path → source.
func seedFiles() map[string]string {
	files := map[string]string{}
	for _, f := range workspace.Seed().Files {
		files[f.Path] = f.Source
	}
	return files
}
