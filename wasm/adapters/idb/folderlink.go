//go:build js && wasm

package idb

import (
	"context"
	"fmt"
	"syscall/js"

	"github.com/hack-pad/go-indexeddb/idb"
)

// folderKey is the key of the persisted folder link in the "workspaces" store.
const folderKey = "folder"

// FolderLink is the persisted link of the linked folder (issue 8; REFERENCE §6.6 "persisted
// alongside the handle"): stored under the key "folder" in the "workspaces" store, beside the
// workspace metadata "current", as {handle, scopeId, name}. Handle is the
// FileSystemDirectoryHandle itself, stored by structured clone (IndexedDB can hold handles;
// nothing else may see it). SaveSnapshot never touches it (it clears only the files store).
type FolderLink struct {
	Handle  js.Value
	ScopeID string
	Name    string
}

// SaveFolderLink stores l in one readwrite transaction.
func (r *Repository) SaveFolderLink(ctx context.Context, l FolderLink) (err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer recoverErr(&err, "save folder link")
	t, ws, _, err := r.txn(ctx, idb.TransactionReadWrite)
	if err != nil {
		return err
	}
	o := js.Global().Get("Object").New()
	o.Set("handle", l.Handle)
	o.Set("scopeId", l.ScopeID)
	o.Set("name", l.Name)
	if _, err := ws.PutKey(js.ValueOf(folderKey), o); err != nil {
		return abort(t, "save folder link", err)
	}
	if err := t.Await(ctx); err != nil {
		return fmt.Errorf("idb: save folder link: %w", err)
	}
	return nil
}

// LoadFolderLink returns the stored link; found is false when none is stored (or the stored
// value is not a {handle, scopeId, name} object).
func (r *Repository) LoadFolderLink(ctx context.Context) (l FolderLink, found bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer recoverErr(&err, "load folder link")
	_, ws, _, err := r.txn(ctx, idb.TransactionReadOnly)
	if err != nil {
		return l, false, err
	}
	req, err := ws.Get(js.ValueOf(folderKey))
	if err != nil {
		return l, false, fmt.Errorf("idb: load folder link: %w", err)
	}
	v, err := req.Await(ctx)
	if err != nil {
		return l, false, fmt.Errorf("idb: load folder link: %w", err)
	}
	if v.Type() != js.TypeObject || v.Get("handle").Type() != js.TypeObject || v.Get("scopeId").Type() != js.TypeString {
		return l, false, nil
	}
	return FolderLink{Handle: v.Get("handle"), ScopeID: v.Get("scopeId").String(), Name: v.Get("name").String()}, true, nil
}

// ClearFolderLink removes the stored link (disconnect, stale root, upload import).
func (r *Repository) ClearFolderLink(ctx context.Context) (err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer recoverErr(&err, "clear folder link")
	t, ws, _, err := r.txn(ctx, idb.TransactionReadWrite)
	if err != nil {
		return err
	}
	if _, err := ws.Delete(js.ValueOf(folderKey)); err != nil {
		return abort(t, "clear folder link", err)
	}
	if err := t.Await(ctx); err != nil {
		return fmt.Errorf("idb: clear folder link: %w", err)
	}
	return nil
}

// lostFolderKey is the key of the lost folder's name in the "workspaces" store.
const lostFolderKey = "lostFolder"

// SaveLostFolder records name as the folder the workspace was linked to when that link was
// lost (WORKSPACE_FOLDER_STALE): {name} only, never a handle, beside the workspace metadata,
// so a reload can still say which folder the edits belong to and offer Reconnect folder.
func (r *Repository) SaveLostFolder(ctx context.Context, name string) (err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer recoverErr(&err, "save lost folder")
	t, ws, _, err := r.txn(ctx, idb.TransactionReadWrite)
	if err != nil {
		return err
	}
	o := js.Global().Get("Object").New()
	o.Set("name", name)
	if _, err := ws.PutKey(js.ValueOf(lostFolderKey), o); err != nil {
		return abort(t, "save lost folder", err)
	}
	if err := t.Await(ctx); err != nil {
		return fmt.Errorf("idb: save lost folder: %w", err)
	}
	return nil
}

// LoadLostFolder returns the lost folder's name ("" when none is recorded).
func (r *Repository) LoadLostFolder(ctx context.Context) (name string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer recoverErr(&err, "load lost folder")
	_, ws, _, err := r.txn(ctx, idb.TransactionReadOnly)
	if err != nil {
		return "", err
	}
	req, err := ws.Get(js.ValueOf(lostFolderKey))
	if err != nil {
		return "", fmt.Errorf("idb: load lost folder: %w", err)
	}
	v, err := req.Await(ctx)
	if err != nil {
		return "", fmt.Errorf("idb: load lost folder: %w", err)
	}
	if v.Type() != js.TypeObject || v.Get("name").Type() != js.TypeString {
		return "", nil
	}
	return v.Get("name").String(), nil
}

// ClearLostFolder forgets the lost folder (a folder is linked again, or another workspace
// replaced this one).
func (r *Repository) ClearLostFolder(ctx context.Context) (err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer recoverErr(&err, "clear lost folder")
	t, ws, _, err := r.txn(ctx, idb.TransactionReadWrite)
	if err != nil {
		return err
	}
	if _, err := ws.Delete(js.ValueOf(lostFolderKey)); err != nil {
		return abort(t, "clear lost folder", err)
	}
	if err := t.Await(ctx); err != nil {
		return fmt.Errorf("idb: clear lost folder: %w", err)
	}
	return nil
}
