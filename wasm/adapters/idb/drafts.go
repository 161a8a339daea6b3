//go:build js && wasm

package idb

import (
	"context"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/hack-pad/go-indexeddb/idb"
)

// DraftsName is the database of the editor's kept drafts (issue 14: over-budget drafts, one per
// file, in their own IndexedDB store so that no workspace write or other draft replaces them).
const DraftsName = "web-coding-drafts"

const (
	draftsStore   = "drafts"
	draftsVersion = 1
)

// Draft is one kept draft: {path, text, rev, base}. Rev is the workspace revision the editor
// showed when it was typed; Base the hash of the file's text under it ("" unknown).
type Draft struct {
	Path string
	Text string
	Rev  int64
	Base string
}

// Drafts is the draft store over the database DraftsName: one record per path. It is safe for
// concurrent use; calls are serialized. Every error is returned (a full quota is
// QuotaExceededError's text), never swallowed: the caller reports it.
type Drafts struct {
	mu sync.Mutex
	db *idb.Database
}

// NewDrafts returns the store; the database is opened by the first call.
func NewDrafts() *Drafts { return &Drafts{} }

func (d *Drafts) open(ctx context.Context) (*idb.Database, error) {
	if d.db != nil {
		return d.db, nil
	}
	db, err := openOneStore(ctx, DraftsName, draftsVersion, draftsStore)
	if err != nil {
		return nil, err
	}
	d.db = db
	return db, nil
}

func (d *Drafts) store(ctx context.Context, mode idb.TransactionMode) (*idb.Transaction, *idb.ObjectStore, error) {
	db, err := d.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	t, err := db.Transaction(mode, draftsStore)
	if err != nil {
		d.db = nil
		return nil, nil, fmt.Errorf("idb: drafts: %w", err)
	}
	s, err := t.ObjectStore(draftsStore)
	if err != nil {
		return nil, nil, fmt.Errorf("idb: drafts: %w", err)
	}
	return t, s, nil
}

// Put keeps draft under its path (replacing that path's previous draft only).
func (d *Drafts) Put(ctx context.Context, dr Draft) (err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer recoverErr(&err, "keep draft")
	t, s, err := d.store(ctx, idb.TransactionReadWrite)
	if err != nil {
		return err
	}
	o := newObject()
	o.Set("path", dr.Path)
	o.Set("text", dr.Text)
	o.Set("rev", float64(dr.Rev))
	o.Set("base", dr.Base)
	if _, err := s.PutKey(js.ValueOf(dr.Path), o); err != nil {
		return abort(t, "keep draft", err)
	}
	if err := t.Await(ctx); err != nil {
		return fmt.Errorf("idb: keep draft: %w", err)
	}
	return nil
}

// Delete removes the draft of path (none stored is not an error).
func (d *Drafts) Delete(ctx context.Context, path string) (err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer recoverErr(&err, "discard draft")
	t, s, err := d.store(ctx, idb.TransactionReadWrite)
	if err != nil {
		return err
	}
	if _, err := s.Delete(js.ValueOf(path)); err != nil {
		return abort(t, "discard draft", err)
	}
	if err := t.Await(ctx); err != nil {
		return fmt.Errorf("idb: discard draft: %w", err)
	}
	return nil
}

// All returns every kept draft, in key (path) order.
func (d *Drafts) All(ctx context.Context) (out []Draft, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer recoverErr(&err, "read drafts")
	_, s, err := d.store(ctx, idb.TransactionReadOnly)
	if err != nil {
		return nil, err
	}
	kreq, err := s.GetAllKeys()
	if err != nil {
		return nil, fmt.Errorf("idb: read drafts: %w", err)
	}
	keys, err := kreq.Await(ctx)
	if err != nil {
		return nil, fmt.Errorf("idb: read drafts: %w", err)
	}
	vals := make([]js.Value, 0, len(keys))
	for _, k := range keys {
		req, err := s.Get(k)
		if err != nil {
			return nil, fmt.Errorf("idb: read drafts: %w", err)
		}
		v, err := req.Await(ctx)
		if err != nil {
			return nil, fmt.Errorf("idb: read drafts: %w", err)
		}
		vals = append(vals, v)
	}
	for _, v := range vals {
		if v.Type() != js.TypeObject || v.Get("path").Type() != js.TypeString || v.Get("text").Type() != js.TypeString {
			continue
		}
		dr := Draft{Path: v.Get("path").String(), Text: v.Get("text").String()}
		if r := v.Get("rev"); r.Type() == js.TypeNumber {
			dr.Rev = int64(r.Float())
		}
		if b := v.Get("base"); b.Type() == js.TypeString {
			dr.Base = b.String()
		}
		out = append(out, dr)
	}
	return out, nil
}
