package wasmhost

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzHandle sends arbitrary bytes through the ABI into the core: the host must never fail,
// the instance must survive, and every answer must be JSON (a response, a batch response, or
// — for an all-notification batch — nothing).
func FuzzHandle(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `[]`, `[{}]`, `null`, "\xff\xfe", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":null}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":"index.html"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","Name":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"ping"}]`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"__proto__","arguments":{}}}`,
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`,
	} {
		f.Add([]byte(s))
	}
	h, err := New(context.Background(), Options{ModulePath: testModule, CallTimeout: 20 * time.Second})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, req []byte) {
		if bytes.HasPrefix(req, []byte("#hosttest:")) {
			t.Skip("test-only requests hang or exit on purpose")
		}
		before := h.Stats().Instantiations
		resp, err := h.Handle(context.Background(), req)
		if err != nil {
			t.Fatalf("Handle(%q): %v", req, err)
		}
		if len(resp) > 0 && !json.Valid(resp) {
			t.Fatalf("Handle(%q) answered non-JSON %.300q", req, resp)
		}
		if n := h.Stats().Instantiations; n != before {
			t.Fatalf("Handle(%q) reset the instance", req)
		}
	})
}

// FuzzFolderPath writes arbitrary paths and bytes through the guest's folder adapter (the
// folder host functions over DirFolder, see folder_test.go). Either the write succeeds, the
// file lies inside the folder and reads back byte for byte, or it fails; and nothing is ever
// written beside the folder, whose parent also holds a symlink target the folder links to.
func FuzzFolderPath(f *testing.F) {
	for _, s := range []string{"a.css", "../x", "a/../../x", "/etc/x", "out/x", "out/../../x", "a\\..\\..\\x",
		"", ".", "a//b", "./a", "a\x00b", "%2e%2e/x", "é/ü.css", "a/b/c/d/e/f.js"} {
		f.Add(s, []byte("data"))
	}
	parent := f.TempDir()
	dir := filepath.Join(parent, "site")
	outside := filepath.Join(parent, "outside")
	for _, d := range []string{dir, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		f.Skip("symlinks:", err)
	}
	h, err := New(context.Background(), Options{ModulePath: testModule, FolderDir: dir, AbandonOnDeadline: true, CallTimeout: 20 * time.Second})
	if err != nil {
		f.Fatal(err)
	}
	g := &guestFolder{h: h}
	f.Fuzz(func(t *testing.T, p string, data []byte) {
		g.t = t
		// The hook carries the path in JSON, which turns invalid UTF-8 into U+FFFD: check the
		// path the guest actually sees (testdata: the first fuzz failure was this harness bug).
		if b, err := json.Marshal(p); err == nil {
			_ = json.Unmarshal(b, &p)
		}
		ctx := context.Background()
		werr := g.WriteFile(ctx, p, data)
		if werr == nil {
			got, rerr := g.ReadFile(ctx, p)
			if rerr != nil || !bytes.Equal(got, data) {
				t.Fatalf("WriteFile(%q) succeeded, read back %d bytes, %v", p, len(got), rerr)
			}
			real, err := filepath.EvalSymlinks(filepath.Join(dir, filepath.FromSlash(p)))
			if err != nil || !strings.HasPrefix(real, dir+string(filepath.Separator)) {
				t.Fatalf("WriteFile(%q) wrote %q (%v), outside %s", p, real, err, dir)
			}
		}
		if entries, _ := os.ReadDir(outside); len(entries) != 0 {
			t.Fatalf("WriteFile(%q) = %v wrote outside the folder: %v", p, werr, entries)
		}
		if entries, _ := os.ReadDir(parent); len(entries) != 2 {
			t.Fatalf("WriteFile(%q) = %v wrote beside the folder: %v", p, werr, entries)
		}
	})
}

// FuzzDurableRequest: decodeDurableRequest never panics, and a request it accepts decodes to the
// same value after a round trip through its documented JSON shape.
func FuzzDurableRequest(f *testing.F) {
	f.Add([]byte(`{"key":"k","timeoutMs":100}`))
	f.Add([]byte(`{"key":"[\"default\",\"workspace.writeFile\",\"k1\"]","expected":{"incarnation":"i","revision":3},"delete":false}`))
	f.Add([]byte(`{"key":"k","expected":null,"delete":true}`))
	f.Add([]byte(`{"cursor":"a","limit":1000}`))
	f.Add([]byte(`{"key":"k","key":"k"}`))
	f.Add([]byte(`{"Key":"k"}`))
	f.Add([]byte(`{"limit":1e999}`))
	f.Add([]byte("{\"key\":\"\xff\"}"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := decodeDurableRequest(raw)
		if err != nil {
			return
		}
		b, err := json.Marshal(map[string]any{"key": r.Key, "expected": r.Expected, "delete": r.Delete,
			"cursor": r.Cursor, "limit": r.Limit, "timeoutMs": r.TimeoutMs})
		if err != nil {
			t.Fatalf("re-encoding %+v: %v", r, err)
		}
		r2, err := decodeDurableRequest(b)
		if err != nil {
			t.Fatalf("re-decoding %s: %v", b, err)
		}
		if r.Key != r2.Key || r.Delete != r2.Delete || r.Cursor != r2.Cursor || r.Limit != r2.Limit || r.TimeoutMs != r2.TimeoutMs ||
			(r.Expected == nil) != (r2.Expected == nil) || (r.Expected != nil && *r.Expected != *r2.Expected) {
			t.Fatalf("round trip changed %+v into %+v", r, r2)
		}
	})
}
