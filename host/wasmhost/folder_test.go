package wasmhost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/workspace"
	"github.com/webcoding/studio/wasm/workspace/workspacetest"
)

// guestFolder is a workspace.FolderAdapter whose every method runs inside the module: the
// "#hosttest:folder" hook calls the guest's hostcall.Folder, which calls back into this
// host's folder_* functions over DirFolder. It proves the byte protocol both ways.
type guestFolder struct {
	t  testing.TB
	h  *Host
	fi struct{ name, scope string }
}

type guestResult struct {
	Err        string `json:"err"`
	Message    string `json:"message"`
	Name       string `json:"name"`
	ScopeID    string `json:"scopeId"`
	Permission string `json:"permission"`
	Data       []byte `json:"data"`
	Entries    []struct {
		Path string `json:"path"`
		Size int64  `json:"size"`
		Data []byte `json:"data"`
	} `json:"entries"`
}

func (g *guestFolder) op(ctx context.Context, op, path string, data []byte) (guestResult, error) {
	req, _ := json.Marshal(map[string]any{"op": op, "path": path, "data": data})
	resp, err := g.h.Handle(ctx, append([]byte("#hosttest:folder"), req...))
	if err != nil {
		g.t.Fatalf("%s %s: %v", op, path, err)
	}
	var r guestResult
	if err := json.Unmarshal(resp, &r); err != nil {
		g.t.Fatalf("%s %s: %v: %q", op, path, err, resp)
	}
	var sentinel error
	switch r.Err {
	case "":
		return r, nil
	case "stale":
		sentinel = workspace.ErrFolderStale
	case "missing":
		sentinel = workspace.ErrFolderFileMissing
	case "permission":
		sentinel = workspace.ErrFolderPermission
	case "escapes":
		sentinel = workspace.ErrFolderPathEscapes
	case "not-a-file":
		sentinel = workspace.ErrFolderNotAFile
	default:
		return r, fmt.Errorf("guest %s: %s", r.Err, r.Message)
	}
	return r, fmt.Errorf("%w (guest: %s)", sentinel, r.Message)
}

func (g *guestFolder) Name() string    { return g.fi.name }
func (g *guestFolder) ScopeID() string { return g.fi.scope }
func (g *guestFolder) Permission(ctx context.Context) workspace.Permission {
	r, err := g.op(ctx, "permission", "", nil)
	if err != nil {
		return workspace.PermissionUnknown
	}
	return workspace.Permission(r.Permission)
}
func (g *guestFolder) ReadTree(ctx context.Context) ([]workspace.ImportEntry, error) {
	r, err := g.op(ctx, "tree", "", nil)
	if err != nil {
		return nil, err
	}
	var out []workspace.ImportEntry
	for _, e := range r.Entries {
		data := e.Data
		out = append(out, workspace.ImportEntry{Path: e.Path, Size: e.Size,
			Read: func(context.Context) ([]byte, error) { return data, nil }})
	}
	return out, nil
}
func (g *guestFolder) ReadFile(ctx context.Context, p string) ([]byte, error) {
	r, err := g.op(ctx, "read", p, nil)
	return r.Data, err
}
func (g *guestFolder) WriteFile(ctx context.Context, p string, data []byte) error {
	_, err := g.op(ctx, "write", p, data)
	return err
}
func (g *guestFolder) DeleteFile(ctx context.Context, p string) error {
	_, err := g.op(ctx, "delete", p, nil)
	return err
}

// writeTree creates files (path → content) under dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newFolderHost starts a host over a fresh directory holding files and returns the guest-side
// adapter and the directory.
func newFolderHost(t *testing.T, files map[string]string, opts Options) (*guestFolder, string) {
	dir := filepath.Join(t.TempDir(), "site")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, files)
	opts.FolderDir = dir
	g := &guestFolder{t: t, h: newHost(t, opts)}
	r, err := g.op(context.Background(), "info", "", nil)
	if err != nil {
		t.Fatalf("info: %v", err)
	}
	g.fi.name, g.fi.scope = r.Name, r.ScopeID
	return g, dir
}

// TestFolderContractThroughTheModule runs the FolderAdapter contract on the guest's hostcall
// adapter, end to end through the host functions (in the safe and the fast host mode).
func TestFolderContractThroughTheModule(t *testing.T) {
	for _, abandon := range []bool{false, true} {
		t.Run(fmt.Sprintf("abandonOnDeadline=%t", abandon), func(t *testing.T) {
			workspacetest.RunFolder(t, workspacetest.FolderHarness{
				New: func(t *testing.T, files map[string]string) workspace.FolderAdapter {
					g, _ := newFolderHost(t, files, Options{AbandonOnDeadline: abandon})
					if g.fi.name != "site" || !strings.HasPrefix(g.fi.scope, "folder:") {
						t.Fatalf("info = %+v", g.fi)
					}
					return g
				},
				MakeStale: func(t *testing.T, f workspace.FolderAdapter) {
					if err := os.RemoveAll(f.(*guestFolder).h.opts.FolderDir); err != nil {
						t.Fatal(err)
					}
				},
			})
		})
	}
}

// TestFolderLargeFilesAreParked moves bodies larger than the guest's 64 KiB result buffer
// both ways (the parked-result path, result_take) and binary bytes unchanged.
func TestFolderLargeFilesAreParked(t *testing.T) {
	g, dir := newFolderHost(t, map[string]string{"index.html": "<p>"}, Options{})
	ctx := context.Background()
	big := make([]byte, 300<<10)
	for i := range big {
		big[i] = byte(i * 7)
	}
	if err := g.WriteFile(ctx, "img/big.bin", big); err != nil {
		t.Fatal(err)
	}
	if onDisk, err := os.ReadFile(filepath.Join(dir, "img", "big.bin")); err != nil || !bytes.Equal(onDisk, big) {
		t.Fatalf("on disk: %d bytes, %v", len(onDisk), err)
	}
	got, err := g.ReadFile(ctx, "img/big.bin")
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("read back %d bytes, %v", len(got), err)
	}
	if n := len(g.h.io.parked); n != 0 {
		t.Fatalf("%d parked results left behind", n)
	}
}

// TestFolderSymlinkEscapeRefused: a symlink inside the folder that points outside is refused
// by the guest adapter's writes and reads, and nothing is written outside.
func TestFolderSymlinkEscapeRefused(t *testing.T) {
	g, dir := newFolderHost(t, map[string]string{"index.html": "<p>"}, Options{})
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Skip("symlinks:", err)
	}
	ctx := context.Background()
	for _, p := range []string{"out/x.css", "../x.css", "/etc/x.css"} {
		if err := g.WriteFile(ctx, p, []byte("x")); !errors.Is(err, workspace.ErrFolderPathEscapes) {
			t.Errorf("WriteFile(%q) = %v, want ErrFolderPathEscapes", p, err)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("written outside the folder: %v", entries)
	}
}

// TestNoFolderMeansNone: without FolderDir the guest has no folder adapter.
func TestNoFolderMeansNone(t *testing.T) {
	h := sharedHost(t)
	resp := handle(t, h, []byte(`#hosttest:folder{"op":"info"}`))
	if !strings.Contains(string(resp), `"err":"none"`) {
		t.Fatalf("no folder: %s", resp)
	}
}

func TestNewRejectsAMissingFolderDir(t *testing.T) {
	_, err := New(context.Background(), Options{ModulePath: testModule, FolderDir: filepath.Join(t.TempDir(), "nope")})
	if err == nil {
		t.Fatal("New with a missing FolderDir succeeded")
	}
}

func TestDownloadName(t *testing.T) {
	for in, want := range map[string]string{"a.txt": "a.txt", "dir/sub/b.png": "b.png", `c:\x\y.js`: "y.js", "../../etc/passwd": "passwd"} {
		if got, err := DownloadName(in); err != nil || got != want {
			t.Errorf("DownloadName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "a/", "..", "x/.", "a\x00b"} {
		if got, err := DownloadName(in); err == nil {
			t.Errorf("DownloadName(%q) = %q, want an error", in, got)
		}
	}
}
