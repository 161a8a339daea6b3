//go:build js && wasm

package idb

import (
	"context"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/hack-pad/go-indexeddb/idb"
	"github.com/webcoding/studio/wasm/workspace"
)

// DefaultName is the workspace database of the studio (SPEC §2.9).
const DefaultName = "web-coding-studio"

// Store names and the metadata key (see the package documentation).
const (
	storeWorkspaces = "workspaces"
	storeFiles      = "files"
	metaKey         = "current"
	version         = 1
)

// Repository implements workspace.Repository over IndexedDB. The zero value is not usable;
// use New. It is safe for concurrent use; calls are serialized.
type Repository struct {
	name string

	mu sync.Mutex
	db *idb.Database
}

var _ workspace.Repository = (*Repository)(nil)

// New returns a Repository over the database name ("" → DefaultName). The database is opened
// lazily by the first call (and again after a failed open), so New never fails.
func New(name string) *Repository {
	if name == "" {
		name = DefaultName
	}
	return &Repository{name: name}
}

// Name returns the database name.
func (r *Repository) Name() string { return r.name }

// open returns the database, opening (and creating) it when needed. Callers hold r.mu.
func (r *Repository) open(ctx context.Context) (db *idb.Database, err error) {
	if r.db != nil {
		return r.db, nil
	}
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("idb: open %s: %v", r.name, v)
		}
	}()
	g, err := indexedDBFactory()
	if err != nil {
		return nil, fmt.Errorf("idb: %w", err)
	}
	f, err := idb.WrapFactory(g)
	if err != nil {
		return nil, fmt.Errorf("idb: %w", err)
	}
	req, err := f.Open(ctx, r.name, version, func(db *idb.Database, oldVersion, newVersion uint) error {
		names, err := db.ObjectStoreNames()
		if err != nil {
			return err
		}
		have := map[string]bool{}
		for _, n := range names {
			have[n] = true
		}
		for _, n := range []string{storeWorkspaces, storeFiles} {
			if !have[n] {
				if _, err := db.CreateObjectStore(n, idb.ObjectStoreOptions{}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("idb: open %s: %w", r.name, err)
	}
	db, err = req.Await(ctx)
	if err != nil {
		return nil, fmt.Errorf("idb: open %s: %w", r.name, err)
	}
	r.db = db
	return db, nil
}

// txn opens a transaction over both stores.
func (r *Repository) txn(ctx context.Context, mode idb.TransactionMode) (*idb.Transaction, *idb.ObjectStore, *idb.ObjectStore, error) {
	db, err := r.open(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	t, err := db.Transaction(mode, storeWorkspaces, storeFiles)
	if err != nil {
		// A closed connection (e.g. versionchange from another tab) is reopened next time.
		r.db = nil
		return nil, nil, nil, fmt.Errorf("idb: transaction: %w", err)
	}
	ws, err := t.ObjectStore(storeWorkspaces)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("idb: %w", err)
	}
	fs, err := t.ObjectStore(storeFiles)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("idb: %w", err)
	}
	return t, ws, fs, nil
}

// Load returns the stored workspace repaired with workspace.RepairSnapshot, or
// workspace.ErrNoWorkspace when nothing is stored. A file named in the order but missing
// from the files store is skipped.
func (r *Repository) Load(ctx context.Context) (s workspace.Snapshot, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer recoverErr(&err, "load")
	_, ws, fs, err := r.txn(ctx, idb.TransactionReadOnly)
	if err != nil {
		return s, err
	}
	req, err := ws.Get(js.ValueOf(metaKey))
	if err != nil {
		return s, fmt.Errorf("idb: load: %w", err)
	}
	mv, err := req.Await(ctx)
	if err != nil {
		return s, fmt.Errorf("idb: load: %w", err)
	}
	if mv.IsUndefined() || mv.IsNull() {
		return s, workspace.ErrNoWorkspace
	}
	meta, order := decodeMeta(mv)
	s.Metadata = meta
	for _, p := range order {
		freq, err := fs.Get(js.ValueOf(p))
		if err != nil {
			return s, fmt.Errorf("idb: load %s: %w", p, err)
		}
		fv, err := freq.Await(ctx)
		if err != nil {
			return s, fmt.Errorf("idb: load %s: %w", p, err)
		}
		if fv.Type() != js.TypeObject {
			continue
		}
		s.Files = append(s.Files, decodeFile(fv))
	}
	workspace.RepairSnapshot(&s)
	return s, nil
}

// SaveSnapshot replaces every stored file and the metadata in one transaction. Like
// SaveChanges it refuses, writing nothing, with a *workspace.StaleWriteError when the stored
// revision is newer than s.Revision (read just before, in its own read-only transaction: the
// workspace lock keeps other tabs from writing in between).
func (r *Repository) SaveSnapshot(ctx context.Context, s workspace.Snapshot) (err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer recoverErr(&err, "save snapshot")
	if stored, err := r.storedRevision(ctx); err != nil {
		return err
	} else if stored > s.Revision { // never write a state older than the stored one
		return &workspace.StaleWriteError{Stored: stored, Writing: s.Revision}
	}
	t, ws, fs, err := r.txn(ctx, idb.TransactionReadWrite)
	if err != nil {
		return err
	}
	if _, err := fs.Clear(); err != nil {
		return abort(t, "save snapshot", err)
	}
	order := make([]string, 0, len(s.Files))
	for _, f := range s.Files {
		if _, err := fs.PutKey(js.ValueOf(f.Path), encodeFile(f)); err != nil {
			return abort(t, "save snapshot", err)
		}
		order = append(order, f.Path)
	}
	if _, err := ws.PutKey(js.ValueOf(metaKey), encodeMeta(s.Metadata, order)); err != nil {
		return abort(t, "save snapshot", err)
	}
	if err := t.Await(ctx); err != nil {
		return fmt.Errorf("idb: save snapshot: %w", err)
	}
	return nil
}

// storedRevision reads the stored revision (0 when nothing is stored) in a read-only
// transaction. Callers hold r.mu.
func (r *Repository) storedRevision(ctx context.Context) (int64, error) {
	_, ws, _, err := r.txn(ctx, idb.TransactionReadOnly)
	if err != nil {
		return 0, err
	}
	req, err := ws.Get(js.ValueOf(metaKey))
	if err != nil {
		return 0, fmt.Errorf("idb: read revision: %w", err)
	}
	mv, err := req.Await(ctx)
	if err != nil {
		return 0, fmt.Errorf("idb: read revision: %w", err)
	}
	if mv.Type() != js.TypeObject {
		return 0, nil
	}
	m, _ := decodeMeta(mv)
	return m.Revision, nil
}

// SaveChanges writes meta, upserts put and removes del in one transaction. New paths are
// appended to the stored order; removed paths leave it. A stored revision newer than
// meta.Revision refuses the write (*workspace.StaleWriteError), nothing written.
func (r *Repository) SaveChanges(ctx context.Context, meta workspace.Metadata, put []*workspace.File, del []string) (err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer recoverErr(&err, "save changes")
	t, ws, fs, err := r.txn(ctx, idb.TransactionReadWrite)
	if err != nil {
		return err
	}
	req, err := ws.Get(js.ValueOf(metaKey))
	if err != nil {
		return abort(t, "save changes", err)
	}
	mv, err := req.Await(ctx)
	if err != nil {
		return abort(t, "save changes", err)
	}
	var order []string
	if mv.Type() == js.TypeObject {
		var stored workspace.Metadata
		stored, order = decodeMeta(mv)
		if stored.Revision > meta.Revision { // never write a state older than the stored one
			_ = t.Abort()
			return &workspace.StaleWriteError{Stored: stored.Revision, Writing: meta.Revision}
		}
	}
	order = applyOrder(order, put, del)
	for _, d := range del {
		if _, err := fs.Delete(js.ValueOf(d)); err != nil {
			return abort(t, "save changes", err)
		}
	}
	for _, f := range put {
		if _, err := fs.PutKey(js.ValueOf(f.Path), encodeFile(f)); err != nil {
			return abort(t, "save changes", err)
		}
	}
	if _, err := ws.PutKey(js.ValueOf(metaKey), encodeMeta(meta, order)); err != nil {
		return abort(t, "save changes", err)
	}
	if err := t.Await(ctx); err != nil {
		return fmt.Errorf("idb: save changes: %w", err)
	}
	return nil
}

// Close closes the connection (the next call reopens it).
func (r *Repository) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.db == nil {
		return nil
	}
	err := r.db.Close()
	r.db = nil
	return err
}

// Delete closes the connection and deletes the whole database (tests, "forget workspace").
func (r *Repository) Delete(ctx context.Context) (err error) {
	defer recoverErr(&err, "delete")
	_ = r.Close()
	g, err := indexedDBFactory()
	if err != nil {
		return fmt.Errorf("idb: %w", err)
	}
	f, err := idb.WrapFactory(g)
	if err != nil {
		return err
	}
	req, err := f.DeleteDatabase(r.name)
	if err != nil {
		return fmt.Errorf("idb: delete %s: %w", r.name, err)
	}
	return req.Await(ctx)
}

func abort(t *idb.Transaction, op string, err error) error {
	_ = t.Abort()
	return fmt.Errorf("idb: %s: %w", op, err)
}

func recoverErr(err *error, op string) {
	if v := recover(); v != nil {
		*err = fmt.Errorf("idb: %s: %v", op, v)
	}
}
