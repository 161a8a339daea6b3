package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webcoding/studio/host/wasmhost"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
)

// These run the server over the real core module (wazero), in process, through the go-sdk
// client on the in-memory transport. stdio_test.go runs the binary.

const wantTools = 26

// moduleServer starts the core (over folder dir, or the seed workspace when dir is "") and a
// server on it, and connects a client.
func moduleServer(t testing.TB, dir string, opts Options) (*sdk.ClientSession, *wasmhost.Host) {
	t.Helper()
	h, err := wasmhost.New(context.Background(), wasmhost.Options{ModulePath: testModule, AbandonOnDeadline: true, FolderDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	srv, err := New(context.Background(), h, opts)
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, srv), h
}

// structured decodes a result's structuredContent.
func structured(t testing.TB, r *sdk.CallToolResult) map[string]any {
	t.Helper()
	b, _ := json.Marshal(r.StructuredContent)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structuredContent %s", b)
	}
	return m
}

func mustSucceed(t testing.TB, r *sdk.CallToolResult) map[string]any {
	t.Helper()
	if r.IsError {
		code, msg := metaError(t, r)
		t.Fatalf("call failed: %s %s", code, msg)
	}
	return structured(t, r)
}

func mustFail(t testing.TB, r *sdk.CallToolResult, code string) string {
	t.Helper()
	got, msg := metaError(t, r)
	if !r.IsError || got != code {
		t.Fatalf("isError %v, code %q (%s); want %s", r.IsError, got, msg, code)
	}
	if r.StructuredContent != nil {
		t.Errorf("error result carries structuredContent")
	}
	if id, _ := r.Meta["toolCallId"].(string); id == "" {
		t.Errorf("error result without _meta.toolCallId")
	}
	return msg
}

func TestModuleListsEveryToolIntact(t *testing.T) {
	cs, h := moduleServer(t, "", Options{})
	// The canonical catalog, read independently from the core.
	cc := &coreClient{core: h, sem: make(chan struct{}, 1)}
	canon, err := registry.ListAllTools(context.Background(), cc.listPage, registry.ListAllOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(canon) != wantTools {
		t.Fatalf("the core lists %d tools, want %d", len(canon), wantTools)
	}
	served := map[string]*sdk.Tool{}
	for tl, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		served[tl.Name] = tl
	}
	if len(served) != wantTools {
		t.Fatalf("served %d tools, want %d", len(served), wantTools)
	}
	for _, c := range canon {
		name := strings.ReplaceAll(c.Name, ".", "_")
		s := served[name]
		if s == nil {
			t.Errorf("%s is not served as %s", c.Name, name)
			continue
		}
		if s.Title != c.Title || s.Description != c.Description {
			t.Errorf("%s: title/description changed", name)
		}
		if !jsonEqual(t, s.InputSchema, c.InputSchema) || !jsonEqual(t, s.OutputSchema, c.OutputSchema) {
			t.Errorf("%s: schemas changed", name)
		}
		a, ca := s.Annotations, c.Annotations
		if ca == nil || a == nil || a.ReadOnlyHint != ca.ReadOnlyHint || a.IdempotentHint != ca.IdempotentHint ||
			a.DestructiveHint == nil || *a.DestructiveHint != ca.DestructiveHint || a.OpenWorldHint == nil || *a.OpenWorldHint != ca.OpenWorldHint {
			t.Errorf("%s: annotations %+v, canonical %+v", name, a, ca)
		}
	}
}

// jsonEqual compares a decoded value with raw JSON (nil equals absent).
func jsonEqual(t testing.TB, got any, want json.RawMessage) bool {
	t.Helper()
	if len(want) == 0 {
		return got == nil
	}
	var w any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	var g any
	_ = json.Unmarshal(b, &g)
	return reflect.DeepEqual(g, w)
}

func TestModuleReadOnlyCallAndRegistryErrors(t *testing.T) {
	cs, _ := moduleServer(t, "", Options{})
	sc := mustSucceed(t, call(t, cs, "workspace_readFile", map[string]any{"path": "index.html"}, sdk.Meta{"toolCallId": "r-1"}))
	if sc["path"] != "index.html" || !strings.Contains(sc["source"].(string), "<html") {
		t.Fatalf("readFile: %v", sc)
	}
	mustFail(t, call(t, cs, "workspace_readFile", map[string]any{"path": "nope.css"}, nil), string(mcp.CodeWorkspaceFileNotFound))
	mustFail(t, call(t, cs, "workspace_readFile", map[string]any{"path": "../etc/passwd"}, nil), "WORKSPACE_PATH_INVALID")
	mustFail(t, call(t, cs, "workspace_readFile", map[string]any{"path": 5}, nil), "TOOL_VALIDATION_FAILED")
	sc = mustSucceed(t, call(t, cs, "preview_getStatus", map[string]any{}, nil))
	if !strings.Contains(jsonString(sc), "headless (not executed)") {
		t.Errorf("preview.getStatus does not say the preview is headless: %v", sc)
	}
	// The context tools of issue 17 are read-only: they run without approval, and say what a
	// headless host cannot do (no computed styles, no console).
	sc = mustSucceed(t, call(t, cs, "preview_inspect", map[string]any{"selector": "#hero-button"}, nil))
	if sc["computed"] != false || sc["role"] != "button" || sc["name"] != "Start building" {
		t.Errorf("preview_inspect: %v", sc)
	}
	sc = mustSucceed(t, call(t, cs, "preview_getConsole", map[string]any{}, nil))
	if sc["runtime"] != false || !strings.Contains(jsonString(sc), "headless") {
		t.Errorf("preview_getConsole: %v", sc)
	}
	mustFail(t, call(t, cs, "preview_inspect", map[string]any{"selector": "#nope"}, nil), string(mcp.CodePreviewTargetNotFound))
	// preview.audit needs a page that runs: the MCP server under wazero answers the typed error.
	if msg := mustFail(t, call(t, cs, "preview_audit", map[string]any{}, nil), string(mcp.CodePreviewNeedsBrowser)); !strings.Contains(msg, "needs a browser") {
		t.Errorf("preview_audit: %q", msg)
	}
}

func jsonString(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestModuleMutationNeedsApproval(t *testing.T) {
	cs, _ := moduleServer(t, "", Options{})
	msg := mustFail(t, call(t, cs, "workspace_writeFile", map[string]any{"path": "styles.css", "source": "x{}"}, nil), "TOOL_APPROVAL_REQUIRED")
	if !strings.Contains(msg, "--approve workspace_writeFile") {
		t.Fatalf("message %q does not name the flag", msg)
	}
	if sc := mustSucceed(t, call(t, cs, "workspace_readFile", map[string]any{"path": "styles.css"}, nil)); sc["source"] == "x{}" {
		t.Fatal("a refused mutation changed the file")
	}

	cs, _ = moduleServer(t, "", Options{Approval: Approval{Tools: []string{"workspace_writeFile"}}})
	mustSucceed(t, call(t, cs, "workspace_writeFile", map[string]any{"path": "styles.css", "source": "x{}"}, nil))
	if sc := mustSucceed(t, call(t, cs, "workspace_readFile", map[string]any{"path": "styles.css"}, nil)); sc["source"] != "x{}" {
		t.Fatalf("approved write not applied: %v", sc["source"])
	}
	// Approval is per tool.
	mustFail(t, call(t, cs, "workspace_createFile", map[string]any{"path": "b.css", "source": ""}, nil), "TOOL_APPROVAL_REQUIRED")
}

func TestModuleDestructiveNeedsOptIn(t *testing.T) {
	cs, _ := moduleServer(t, "", Options{Approval: Approval{All: true}})
	msg := mustFail(t, call(t, cs, "workspace_deleteFile", map[string]any{"path": "styles.css"}, nil), "TOOL_APPROVAL_REQUIRED")
	if !strings.Contains(msg, "--allow-destructive") {
		t.Fatalf("message %q does not name --allow-destructive", msg)
	}
	cs, _ = moduleServer(t, "", Options{Approval: Approval{All: true}, AllowDestructive: true})
	mustSucceed(t, call(t, cs, "workspace_deleteFile", map[string]any{"path": "styles.css"}, nil))
	mustFail(t, call(t, cs, "workspace_readFile", map[string]any{"path": "styles.css"}, nil), string(mcp.CodeWorkspaceFileNotFound))
}

func TestModuleIdempotencyKeyIsHonoured(t *testing.T) {
	for _, durable := range []string{"", "memory"} {
		t.Run("durable="+durable, func(t *testing.T) {
			cs, _ := moduleServer(t, "", Options{Approval: Approval{All: true}, Durable: durable})
			args := map[string]any{"path": "styles.css", "source": "a{}"}
			first := mustSucceed(t, call(t, cs, "workspace_writeFile", args, sdk.Meta{"idempotencyKey": "k-1"}))
			again := mustSucceed(t, call(t, cs, "workspace_writeFile", args, sdk.Meta{"idempotencyKey": "k-1"}))
			if first["revision"] != again["revision"] {
				t.Fatalf("the same idempotency key ran twice: revisions %v, %v", first["revision"], again["revision"])
			}
			other := mustSucceed(t, call(t, cs, "workspace_writeFile", args, sdk.Meta{"idempotencyKey": "k-2"}))
			if other["revision"] == first["revision"] {
				t.Fatalf("a new key did not run (revision %v)", other["revision"])
			}
			mustFail(t, call(t, cs, "workspace_writeFile", map[string]any{"path": "styles.css", "source": "b{}"}, sdk.Meta{"idempotencyKey": "k-1"}), "TOOL_IDEMPOTENCY_CONFLICT")
		})
	}
}

// seedFolder writes a small site into a new temporary directory.
func seedFolder(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"index.html": "<!doctype html>\n<html><head><link rel=\"stylesheet\" href=\"styles.css\"></head><body><h1>Hi</h1><script type=\"module\" src=\"app.js\"></script></body></html>\n",
		"styles.css": "h1{color:red}\n",
		"app.js":     "console.log(1)\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readDisk(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestModuleFolderSaveAllAndTraversal(t *testing.T) {
	dir := seedFolder(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "escape")); err != nil {
		t.Fatal(err)
	}
	cs, _ := moduleServer(t, dir, Options{Approval: Approval{All: true}, AllowDestructive: true})
	if sc := mustSucceed(t, call(t, cs, "workspace_readFile", map[string]any{"path": "styles.css"}, nil)); sc["source"] != "h1{color:red}\n" {
		t.Fatalf("the folder was not linked: %v", sc["source"])
	}
	mustSucceed(t, call(t, cs, "workspace_writeFile", map[string]any{"path": "styles.css", "source": "h1{color:blue}\n"}, nil))
	if got := readDisk(t, filepath.Join(dir, "styles.css")); got != "h1{color:red}\n" {
		t.Fatalf("written to disk before saveAll: %q", got)
	}
	mustSucceed(t, call(t, cs, "workspace_saveAll", map[string]any{}, nil))
	if got := readDisk(t, filepath.Join(dir, "styles.css")); got != "h1{color:blue}\n" {
		t.Fatalf("saveAll did not write the file: %q", got)
	}

	mustFail(t, call(t, cs, "workspace_createFile", map[string]any{"path": "../evil.css", "source": "x"}, nil), "WORKSPACE_PATH_INVALID")
	// A symlink out of the folder: the workspace may hold the path, the save must not follow it.
	r := call(t, cs, "workspace_createFile", map[string]any{"path": "escape/evil.css", "source": "x"}, nil)
	if !r.IsError {
		if r := call(t, cs, "workspace_saveAll", map[string]any{}, nil); !r.IsError {
			t.Errorf("saveAll through a symlink leaving the folder succeeded")
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("a file was written outside the folder: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "evil.css")); err == nil {
		t.Fatal("a file was written next to the folder")
	}
}

func TestModuleAutosave(t *testing.T) {
	dir := seedFolder(t)
	cs, _ := moduleServer(t, dir, Options{Approval: Approval{Tools: []string{"workspace.writeFile"}}, Autosave: true})
	r := call(t, cs, "workspace_writeFile", map[string]any{"path": "app.js", "source": "console.log(2)\n"}, nil)
	mustSucceed(t, r)
	if got := jsonString(r.Meta["autosave"]); got != `{"saved":true}` {
		t.Fatalf("_meta.autosave %s", got)
	}
	if got := readDisk(t, filepath.Join(dir, "app.js")); got != "console.log(2)\n" {
		t.Fatalf("autosave did not write: %q", got)
	}
	// Read-only calls and refused calls do not save.
	r = call(t, cs, "workspace_readFile", map[string]any{"path": "app.js"}, nil)
	if r.Meta["autosave"] != nil {
		t.Errorf("a read-only call autosaved")
	}
	r = call(t, cs, "workspace_createFile", map[string]any{"path": "b.js", "source": ""}, nil)
	if !r.IsError || r.Meta["autosave"] != nil {
		t.Errorf("a refused call autosaved: %v %v", r.IsError, r.Meta["autosave"])
	}
}
