//go:build js && wasm

package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/webcoding/studio/wasm/adapters/fsa"
	"github.com/webcoding/studio/wasm/adapters/idb"
	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// folderHost is the page's studio.FolderHost (issue 8): File System Access folders through
// wasm/adapters/fsa, the link persisted next to the workspace metadata (idb.FolderLink), and
// the files staged by the directory-upload fallback. Directory handles stay here and in
// IndexedDB; the core only ever sees workspace.FolderAdapter values.
type folderHost struct {
	repo *idb.Repository // nil: links are not persisted (no IndexedDB)
	ui   *folderState    // the folder feature's state (unlinks, save progress)

	mu       sync.Mutex
	upload   *stagedUpload
	lastPick *fsa.Folder // the folder Pick returned last (its skipped folders are shown)
	// uploadSkipped: the skipped folders of the last directory-upload choice
	uploadSkipped []string
}

// stagedUpload is one directory-upload choice waiting for workspace/uploadFolder.
type stagedUpload struct {
	root    string
	entries []workspace.ImportEntry
	skipped []string // folders in the file list the importer does not enter (.git, node_modules)
}

var _ studio.FolderHost = (*folderHost)(nil)

// newFolderHost is the page's folder host; ui is the folder feature's state it reports
// unlinks and save progress to (folder.go).
func newFolderHost(repo *idb.Repository, ui *folderState) *folderHost {
	return &folderHost{repo: repo, ui: ui}
}

// unlinkFunc returns the onUnlink callback of a folder with scope: it forgets the persisted
// link when it is still this folder's (a newer link is left alone).
func (h *folderHost) unlinkFunc(scope *string) func() {
	return func() {
		if h.repo == nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if l, found, err := h.repo.LoadFolderLink(ctx); err == nil && found && l.ScopeID == *scope {
			_ = h.repo.ClearFolderLink(ctx)
		}
		h.ui.changed()
	}
}

func (h *folderHost) wrap(f *fsa.Folder, scope *string) workspace.FolderAdapter {
	if f == nil {
		return nil
	}
	*scope = f.ScopeID()
	f.SetProgress(h.ui.progress)
	return f
}

// Pick implements studio.FolderHost.
func (h *folderHost) Pick(ctx context.Context) (workspace.FolderAdapter, error) {
	scope := new(string)
	f, err := fsa.Pick(ctx, h.unlinkFunc(scope))
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.lastPick = f
	h.mu.Unlock()
	return h.wrap(f, scope), nil
}

// Saved implements studio.FolderHost.
func (h *folderHost) Saved(ctx context.Context) (workspace.FolderAdapter, error) {
	if h.repo == nil {
		return nil, nil
	}
	l, found, err := h.repo.LoadFolderLink(ctx)
	if err != nil || !found {
		// No readable link (IndexedDB unavailable: memory mode) is no link.
		return nil, nil
	}
	scope := new(string)
	f, err := fsa.New(l.Handle, l.ScopeID, h.unlinkFunc(scope))
	if err != nil {
		return nil, err
	}
	return h.wrap(f, scope), nil
}

// pickedSkippedFolders returns the folders the last picked folder's walk did not enter.
func (h *folderHost) pickedSkippedFolders() []string {
	h.mu.Lock()
	f := h.lastPick
	h.mu.Unlock()
	if f == nil {
		return nil
	}
	return f.SkippedFolders()
}

// savedName returns the persisted link's folder name ("" when none).
func (h *folderHost) savedName(ctx context.Context) string {
	if h.repo == nil {
		return ""
	}
	l, found, err := h.repo.LoadFolderLink(ctx)
	if err != nil || !found {
		return ""
	}
	return l.Name
}

// lostName returns the recorded lost folder's name ("" when none; idb.LoadLostFolder).
func (h *folderHost) lostName(ctx context.Context) string {
	if h.repo == nil {
		return ""
	}
	name, _ := h.repo.LoadLostFolder(ctx)
	return name
}

// setLost records (name != "") or forgets (name == "") the lost folder's name.
func (h *folderHost) setLost(ctx context.Context, name string) {
	if h.repo == nil {
		return
	}
	if name == "" {
		_ = h.repo.ClearLostFolder(ctx)
		return
	}
	_ = h.repo.SaveLostFolder(ctx, name)
}

// Remember implements studio.FolderHost.
func (h *folderHost) Remember(ctx context.Context, f workspace.FolderAdapter) error {
	ff, ok := f.(*fsa.Folder)
	if !ok || h.repo == nil {
		return nil
	}
	return h.repo.SaveFolderLink(ctx, idb.FolderLink{Handle: ff.Handle(), ScopeID: ff.ScopeID(), Name: ff.Name()})
}

// forget removes the persisted link (the upload fallback replaces the workspace unlinked).
func (h *folderHost) forget(ctx context.Context) {
	if h.repo != nil {
		_ = h.repo.ClearFolderLink(ctx)
	}
}

// RequestPermission implements studio.FolderHost.
func (h *folderHost) RequestPermission(ctx context.Context, f workspace.FolderAdapter) workspace.Permission {
	if ff, ok := f.(*fsa.Folder); ok {
		return ff.RequestPermission(ctx)
	}
	return f.Permission(ctx)
}

// stage keeps the files of an <input webkitdirectory> choice for TakeUpload. files is the
// input's FileList; each File's webkitRelativePath is "<root>/<path>".
func (h *folderHost) stage(files js.Value) (root string, n int) {
	var entries []workspace.ImportEntry
	var paths []string
	for i := 0; i < files.Length(); i++ {
		file := files.Index(i)
		rel := file.Get("webkitRelativePath").String()
		if rel == "" {
			rel = file.Get("name").String()
		}
		first, rest, ok := strings.Cut(rel, "/")
		if !ok {
			first, rest = "", rel
		}
		if root == "" {
			root = first
		}
		paths = append(paths, rest)
		entries = append(entries, workspace.ImportEntry{Path: rest, Size: int64(file.Get("size").Float()),
			Read: func(ctx context.Context) ([]byte, error) {
				buf, err := jsbridge.Await(ctx, file.Call("arrayBuffer"))
				if err != nil {
					return nil, err
				}
				arr := js.Global().Get("Uint8Array").New(buf)
				b := make([]byte, arr.Get("byteLength").Int())
				js.CopyBytesToGo(b, arr)
				return b, nil
			}})
	}
	if root == "" {
		root = "upload"
	}
	h.mu.Lock()
	h.upload = &stagedUpload{root: root, entries: entries, skipped: workspace.SkippedFolders(paths)}
	h.uploadSkipped = h.upload.skipped
	h.mu.Unlock()
	return root, len(entries)
}

// uploadSkippedFolders returns the folders the last directory-upload choice held that the
// importer does not enter (the fallback has no walk of its own: computed from its file list).
func (h *folderHost) uploadSkippedFolders() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.uploadSkipped
}

// TakeUpload implements studio.FolderHost.
func (h *folderHost) TakeUpload(ctx context.Context) (string, []workspace.ImportEntry, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	u := h.upload
	h.upload = nil
	if u == nil {
		return "", nil, false
	}
	return u.root, u.entries, true
}

// durableOwnerID is the owner id of this tab's durable folder saves, kept in sessionStorage
// (it survives a reload of the tab, not a new tab), so a reloaded page finishes its own
// claims instead of waiting for their lease.
func durableOwnerID() string {
	const key = "webcoding.durableOwner"
	ss := sessionStorage() // blocked storage: undefined (a fresh id per load)
	if ss.Type() == js.TypeObject {
		if v := ss.Call("getItem", key); v.Type() == js.TypeString && v.String() != "" {
			return v.String()
		}
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	id := "studio-tab:" + hex.EncodeToString(b[:])
	if ss.Type() == js.TypeObject {
		func() {
			defer func() { _ = recover() }()
			ss.Call("setItem", key, id)
		}()
	}
	return id
}
