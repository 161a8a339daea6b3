package memstore

import (
	"context"
	"sort"
	"sync"

	"github.com/webcoding/studio/wasm/durable"
)

type entry struct {
	fence durable.Fence
	raw   []byte
}

// Backend is an in-memory durable.Backend. The zero value is not usable; call New.
type Backend struct {
	mu      sync.Mutex
	records map[string]entry
	keys    []string // sorted byte-wise
}

var _ durable.Backend = (*Backend)(nil)

// New returns an empty backend.
func New() *Backend { return &Backend{records: map[string]entry{}} }

// Read implements durable.Backend. A stored record that does not decode is returned as the
// *durable.ValidationError from durable.DecodeRecord.
func (b *Backend) Read(ctx context.Context, key string) (durable.Record, bool, error) {
	if err := ctx.Err(); err != nil {
		return durable.Record{}, false, durable.BackendFailure("read", err)
	}
	b.mu.Lock()
	e, ok := b.records[key]
	b.mu.Unlock()
	if !ok {
		return durable.Record{}, false, nil
	}
	rec, err := durable.DecodeRecord(e.raw)
	if err != nil {
		return durable.Record{}, false, err
	}
	return rec, true, nil
}

// CompareAndSet implements durable.Backend: the comparison and the write happen under one lock.
// The fence compared is the one stored beside the bytes at write time.
func (b *Backend) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, durable.BackendFailure("compareAndSet", err)
	}
	var raw []byte
	if next != nil {
		var err error
		if raw, err = durable.EncodeRecord(*next); err != nil {
			return false, err
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	cur, exists := b.records[key]
	if expected == nil {
		if exists {
			return false, nil
		}
	} else if !exists || cur.fence != *expected {
		return false, nil
	}
	if next == nil {
		if exists {
			delete(b.records, key)
			i := sort.SearchStrings(b.keys, key)
			b.keys = append(b.keys[:i], b.keys[i+1:]...)
		}
		return true, nil
	}
	if !exists {
		i := sort.SearchStrings(b.keys, key)
		b.keys = append(b.keys, "")
		copy(b.keys[i+1:], b.keys[i:])
		b.keys[i] = key
	}
	b.records[key] = entry{fence: next.Fence(), raw: raw}
	return true, nil
}

// ListPage implements durable.Backend (keyset pages over the sorted keys). limit is clamped to
// 1..durable.MaxListLimit.
func (b *Backend) ListPage(ctx context.Context, cursor string, limit int) ([]durable.Record, string, error) {
	if err := ctx.Err(); err != nil {
		return nil, "", durable.BackendFailure("listPage", err)
	}
	limit = min(max(limit, 1), durable.MaxListLimit)
	b.mu.Lock()
	i := sort.SearchStrings(b.keys, cursor)
	if i < len(b.keys) && b.keys[i] == cursor {
		i++
	}
	end := min(i+limit, len(b.keys))
	raws := make([][]byte, 0, end-i)
	for _, k := range b.keys[i:end] {
		raws = append(raws, b.records[k].raw)
	}
	more := end < len(b.keys)
	b.mu.Unlock()
	return durable.DecodePage(raws, more, durable.DecodeRecord)
}

// PutRaw stores raw bytes under key without validation, bypassing the compare-and-set; the
// stored fence is read loosely from the bytes' "incarnation" and "revision" members when they
// have those types. It exists so that the contract suite (durabletest.RawPutter) can plant
// tampered records; production code never calls it.
func (b *Backend) PutRaw(ctx context.Context, key string, raw []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.records[key]; !ok {
		i := sort.SearchStrings(b.keys, key)
		b.keys = append(b.keys, "")
		copy(b.keys[i+1:], b.keys[i:])
		b.keys[i] = key
	}
	b.records[key] = entry{fence: durable.LooseFence(raw), raw: append([]byte(nil), raw...)}
	return nil
}
